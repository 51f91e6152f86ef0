import { afterEach, describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// A server's records may carry keys named __proto__, constructor and prototype: data, printed as
// sent, never a step of a path. A path a user names through one of them is refused before any
// request, whatever flag takes it, and nothing is ever written through Object.prototype.

const servers = useServers();
const dir = servers.folder();

/** A market record with the keys, as a server writes it (JSON text: a literal would set a prototype). */
const record = (polluted = "yes") =>
  `{"id":"a","token_info":{"symbol":"AAA","name":"Aaa","prototype":{"polluted":"${polluted}"}},"token_metrics":{"usd_price":"1.5"},"__proto__":{"polluted":"${polluted}"},"constructor":{"prototype":{"polluted":"${polluted}"}}}`;
const page = (polluted?: string) =>
  `{"success":true,"data":[${record(polluted)}],"meta":{"pagination":{"page":1,"pageSize":30,"pageCount":1,"total":1}}}`;

/** The hostile server: its records change from "yes" to "more" after the first answer. */
const hostile = () => servers.stub((_req, res, _seen, index) => sendJson(res, page(index ? "more" : "yes")));

const market = async (args: string[]) => {
  const server = await hostile();
  const r = await run(["--base-url", server.url, "--api-key", "k", "market", "-c", "base", ...args], dir);
  return { ...r, requests: server.requests.length };
};

const clean = () =>
  expect(({} as Record<string, unknown>).polluted, "Object.prototype was written").toBeUndefined();

afterEach(() => {
  // A failing run must not leave the worker's other files a polluted prototype.
  delete (Object.prototype as Record<string, unknown>).polluted;
});

describe("a path through __proto__, constructor or prototype", () => {
  it("is refused for every flag that takes a path: one line, exit 2, no request", async () => {
    const cases: Array<[string[], string, string]> = [
      [["--fields", "__proto__.polluted"], "--fields", "__proto__.polluted"],
      [["--fields", "id,constructor.prototype.polluted"], "--fields", "constructor.prototype.polluted"],
      [["--fields", "token_info.prototype"], "--fields", "token_info.prototype"],
      [["--columns", "__proto__"], "--columns", "__proto__"],
      [["--where", "__proto__.polluted=yes"], "--where", "__proto__.polluted"],
      [["--where", "token_info.prototype.polluted~y"], "--where", "token_info.prototype.polluted"],
      [["--sort", "constructor:desc"], "--sort", "constructor"],
      [
        ["--fields", "__proto__.polluted", "--watch", "1s", "--count", "2", "--diff"],
        "--fields",
        "__proto__.polluted",
      ],
    ];
    for (const [args, flag, path] of cases) {
      const r = await market(args);
      const segment = path.split(".").find((s) => ["__proto__", "constructor", "prototype"].includes(s))!;
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(
        `tokenintel: ${flag}: "${path}": "${segment}" is no field name: __proto__, constructor and prototype name JavaScript's object internals, and no path reads them\n`,
      );
      expect(r.stdout).toBe("");
      expect(r.requests, args.join(" ")).toBe(0);
      clean();
    }
  });

  it("a field no record has is never said to be one of them ('did you mean')", async () => {
    const r = await market(["--sort", "polluted", "--json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tokenintel: --sort: "polluted": no record has it in market\n');
    clean();
  });
});

describe("a record carrying __proto__, constructor and prototype keys", () => {
  it("prints them as sent in JSON and NDJSON", async () => {
    for (const format of ["--json", "--ndjson"]) {
      const r = await market([format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.replace(/\s/g, "")).toBe(format === "--json" ? `[${record()}]` : record());
      const [printed] = format === "--json" ? JSON.parse(r.stdout) : [JSON.parse(r.stdout)];
      expect(Object.hasOwn(printed, "__proto__")).toBe(true);
      clean();
    }
  });

  it("--fields, --where and --sort on other fields, CSV and the table work as on any record", async () => {
    const picked = await market([
      "--fields",
      "id,token_info.symbol",
      "--where",
      "token_metrics.usd_price>1",
      "--sort",
      "id",
      "--json",
    ]);
    expect(picked.code, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual([{ id: "a", token_info: { symbol: "AAA" } }]);
    const csv = await market(["-o", "csv"]);
    expect(csv.code, csv.stderr).toBe(0);
    // Each of the keys is one column holding its value whole, never a path into it.
    expect(csv.stdout.split("\n")[0]).toBe(
      "id,token_info.symbol,token_info.name,token_info.prototype,token_metrics.usd_price,__proto__,constructor",
    );
    expect(csv.stdout).toContain('"{""polluted"":""yes""}"');
    const table = await market(["-o", "table"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/AAA/);
    clean();
  });

  it("--watch --diff names a change under __proto__ as a change of that key's value", async () => {
    const r = await market(["--watch", "1s", "--count", "2", "--diff"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => {
        const { at: _, ...rest } = JSON.parse(l) as Record<string, unknown>;
        return rest;
      });
    expect(lines).toEqual([
      {
        id: "a",
        symbol: "AAA",
        field: "token_info.prototype",
        from: { polluted: "yes" },
        to: { polluted: "more" },
      },
      { id: "a", symbol: "AAA", field: "__proto__", from: { polluted: "yes" }, to: { polluted: "more" } },
      {
        id: "a",
        symbol: "AAA",
        field: "constructor",
        from: { prototype: { polluted: "yes" } },
        to: { prototype: { polluted: "more" } },
      },
    ]);
    clean();
  });
});
