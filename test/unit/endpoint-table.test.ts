import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS } from "../../src/commands/agents/definition.js";
import { PATH_SHAPES } from "../../src/commands/complete/run.js";
import { DIRECTORY } from "../../src/commands/directory/definition.js";
import { MARKET } from "../../src/commands/market/definition.js";
import { SMART_MONEY } from "../../src/commands/smart-money/definition.js";
import { STAKING } from "../../src/commands/staking/definition.js";
import { TA } from "../../src/commands/ta/definition.js";
import { TRENDING } from "../../src/commands/trending/definition.js";
import { ENDPOINTS, type EndpointSpec, pathsOf, type SelectorKind } from "../../src/contract/endpoints.js";
import { PAYABLE, ROUTES } from "../../src/sandbox/handlers/index.js";
import { type SandboxServer, startSandbox } from "../../src/sandbox/server.js";

// Issue 24 item 5: one endpoint table (src/contract/endpoints.ts), read by the client's commands and by
// the sandbox, so that the sandbox cannot drift from the client.

const SPECS = {
  market: MARKET,
  directory: DIRECTORY,
  agents: AGENTS,
  ta: TA,
  trending: TRENDING,
  "smart-money": SMART_MONEY,
  staking: STAKING,
};

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

const get = async (path: string, query: Record<string, string>) => {
  const url = new URL(path, sandbox.url);
  for (const [k, v] of Object.entries({ api_key: sandbox.apiKey, ...query })) url.searchParams.set(k, v);
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as { data: unknown } };
};

describe("the endpoint table", () => {
  it("is what each data command sends: path, page size, key rule, selectors and chain rule", () => {
    for (const [name, spec] of Object.entries(SPECS)) {
      const e: EndpointSpec = ENDPOINTS[name as keyof typeof SPECS];
      expect(spec.endpoint, name).toMatchObject({
        path: e.path,
        pageSize: e.pageSize,
        keyOptional: e.keyOptional,
        paged: e.pageSize > 0,
      });
      expect(spec.selectors, name).toEqual(e.selectors);
      expect(spec.chainRequired, name).toBe(e.chainRequired);
    }
  });

  it("completion offers each data command's own record paths", () => {
    expect(Object.keys(PATH_SHAPES).sort()).toEqual(Object.keys(SPECS).sort());
    for (const [name, spec] of Object.entries(SPECS)) expect(PATH_SHAPES[name], name).toBe(spec.shape);
  });

  it("is what the sandbox routes, and every path it serves is payable (every endpoint has a price)", () => {
    for (const e of Object.values(ENDPOINTS) as EndpointSpec[])
      for (const path of pathsOf(e)) {
        expect(ROUTES[path] !== undefined, path).toBe(e.sandbox === true);
        expect(PAYABLE.has(path), path).toBe(e.sandbox === true);
      }
  });

  it("the sandbox selects by exactly the parameters the table names, and pages by its page size", async () => {
    const [token] = sandbox.data.list("base", "virtuals");
    const value: Record<SelectorKind, string> = {
      ticker: token!.symbol,
      address: token!.address,
      id: token!.id,
    };
    for (const name of ["market", "agents", "ta", "directory"] as const) {
      const e: EndpointSpec = ENDPOINTS[name];
      const all = await get(e.path, { chain: "base" });
      expect((all.body.data as unknown[]).length, name).toBe(e.pageSize);
      for (const [kind, param] of Object.entries(e.selectors)) {
        const one = await get(e.path, { chain: "base", [param]: value[kind as SelectorKind] });
        expect((one.body.data as unknown[]).length, `${name} ${param}`).toBe(1);
      }
      // A list parameter the endpoint does not take selects nothing: the whole listing comes back.
      const other = await get(e.path, { chain: "base", not_a_selector: token!.symbol });
      expect((other.body.data as unknown[]).length, name).toBe(e.pageSize);
    }
    const h = ENDPOINTS.history;
    for (const [kind, param] of Object.entries(h.selectors)) {
      const one = await get(h.path, { chain: "base", [param]: value[kind as SelectorKind] });
      expect(one.status, param).toBe(200);
      expect((one.body.data as { token_id: string }).token_id).toBe(token!.id);
      expect((one.body.data as { token_day_metrics: unknown[] }).token_day_metrics).toHaveLength(h.pageSize);
    }
  });
});
