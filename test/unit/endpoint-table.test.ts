import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeIssue, recordSchemaFor, schemaFor } from "../../src/api/schemas.js";
import { PATH_SHAPES } from "../../src/commands/complete/run.js";
import type { DataCommandDefinition } from "../../src/commands/data/definition.js";
import { ENDPOINTS, type EndpointSpec, pathsOf, type SelectorKind } from "../../src/contract/endpoints.js";
import { type Shape, STAKING_ACTIVITY } from "../../src/contract/shapes.js";
import { PAYABLE, ROUTES } from "../../src/sandbox/handlers/index.js";
import { type SandboxServer, startSandbox } from "../../src/sandbox/server.js";
import { dataDefinitions } from "./data-definitions.js";

// One endpoint table (src/contract/endpoints.ts), read by the client's commands and by
// the sandbox, so that the sandbox cannot drift from the client.

let SPECS: Record<string, DataCommandDefinition> = {};
let sandbox: SandboxServer;
beforeAll(async () => {
  SPECS = await dataDefinitions();
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
      const e: EndpointSpec = ENDPOINTS[name as keyof typeof ENDPOINTS];
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

describe("the sandbox's answers on the new endpoints are the documented shapes", () => {
  const strict = (kind: Parameters<typeof recordSchemaFor>[0] | Shape, record: unknown, where: string) => {
    const r = (
      typeof kind === "string" ? recordSchemaFor(kind, "strict") : schemaFor(kind, "strict")
    ).safeParse(record);
    expect(r.success, `${where}: ${r.success ? "" : describeIssue(r.error)}`).toBe(true);
  };

  it("smart-money, staking (older and newer paths, activities) and trending (older and newer records)", async () => {
    // Items joined by a literal comma, as the client sends them (URLSearchParams would write %2C).
    const list = async (path: string) => {
      const res = await fetch(
        `${sandbox.url}${path}?api_key=${sandbox.apiKey}&token_tickers=VIRTUAL,AIXBT,GAME`,
      );
      return { status: res.status, body: (await res.json()) as { data: unknown } };
    };
    const sm = await list(ENDPOINTS["smart-money"].path);
    expect((sm.body.data as unknown[]).length).toBe(3);
    for (const r of sm.body.data as unknown[]) strict("smart-money", r, "smart-money");
    for (const path of [ENDPOINTS.staking.path, ENDPOINTS.staking.newerPath]) {
      const st = await list(path);
      expect((st.body.data as unknown[]).length, path).toBe(3);
      for (const { staking_activities, ...rest } of st.body.data as Array<{
        staking_activities: unknown[];
      }>) {
        strict("staking", rest, path);
        expect(staking_activities.length).toBeGreaterThan(0);
        for (const a of staking_activities) strict(STAKING_ACTIVITY, a, `${path} activity`);
      }
      const tvl = path === ENDPOINTS.staking.newerPath ? "tvl_usd" : "tvl";
      for (const r of st.body.data as Array<{ staking_details: object }>)
        expect(r.staking_details).toHaveProperty(tvl);
    }
    for (const path of [ENDPOINTS.trending.path, ENDPOINTS.trending.newerPath]) {
      const tr = await get(path, { chain: "base", strategy: "volume_and_staking" });
      expect((tr.body.data as unknown[]).length, path).toBe(ENDPOINTS.trending.pageSize);
      for (const r of tr.body.data as unknown[]) strict("trending", r, path);
    }
  });

  it("a request without its required list is refused (400), as the docs say", async () => {
    expect((await get(ENDPOINTS["smart-money"].path, {})).status).toBe(400);
    expect((await get(ENDPOINTS["smart-money"].path, { token_tickers: "VIRTUAL" })).status).toBe(200);
    expect((await get(ENDPOINTS.staking.path, {})).status).toBe(400);
  });

  it("every endpoint it serves offers x402 to a request without a key", async () => {
    for (const e of Object.values(ENDPOINTS) as EndpointSpec[]) {
      if (e.sandbox !== true) continue;
      const url = new URL(e.path, sandbox.url);
      url.searchParams.set("chain", "base");
      url.searchParams.set(Object.values(e.selectors)[0] ?? "x", "VIRTUAL");
      const res = await fetch(url, e.method === "POST" ? { method: "POST", body: '{"question":"hi"}' } : {});
      const body = (await res.json()) as {
        x402Version?: number;
        accepts?: Array<{ maxAmountRequired: string }>;
      };
      expect(res.status, e.path).toBe(402);
      expect(body.x402Version, e.path).toBe(1);
      // The registry's price of the path, in USDC's atomic units: 0.005 a data call, 0.10 the analysis.
      const [whole, fraction = ""] = e.price.split(".");
      expect(body.accepts?.[0]?.maxAmountRequired, e.path).toBe(
        String(Number(whole) * 1e6 + Number(fraction.padEnd(6, "0"))),
      );
    }
  });
});
