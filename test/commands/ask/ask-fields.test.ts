import { describe, expect, it } from "vitest";
import type { TokenBase } from "../../../src/sandbox/tokens.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// ask --fields, in-process through run() against the sandbox: the answer's keys and the token
// details' fields named mean the same in JSON, NDJSON, CSV and the table.

const { sandbox, cliAt } = useKeyedSandbox("ask-fields");
const cli = (args: string[], options: { env?: Record<string, string> } = {}) =>
  cliAt(sandbox, args, options.env);

const token = (symbol: string): TokenBase => {
  const t = sandbox.data.list("base", undefined).find((x) => x.symbol === symbol);
  if (!t) throw new Error(`no sandbox token ${symbol}`);
  return t;
};

describe("ask --fields means the same in every format", () => {
  const q = ["ask", "how is $BAKO doing", "--chain", "base"];
  const bako = () => sandbox.data.askDetail(token("BAKO")) as Record<string, string>;

  it("json and ndjson keep only the named answer keys and detail fields", async () => {
    const fields = ["--fields", "nlpResponse,token_ticker,market_cap"];
    const json = await cli([...q, ...fields, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["nlpResponse", "tokenDetails"]);
    expect(doc.nlpResponse).toMatch(/BAKO/);
    expect(doc.tokenDetails).toEqual([{ token_ticker: "BAKO", market_cap: bako().market_cap }]);
    const nd = await cli([...q, ...fields, "--ndjson"]);
    expect(nd.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(nd.stdout)).toEqual(doc);
    // tokenDetails.<field> is the same as <field>.
    const dotted = await cli([...q, "--fields", "tokenDetails.token_ticker", "--json"]);
    expect(JSON.parse(dotted.stdout)).toEqual({ tokenDetails: [{ token_ticker: "BAKO" }] });
  });

  it("--fields nlpResponse alone is accepted: the answer text, no table", async () => {
    const json = await cli([...q, "--fields", "nlpResponse", "--json"]);
    expect(json.code).toBe(0);
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual(["nlpResponse"]);
    const table = await cli([...q, "--fields", "nlpResponse", "-o", "table"], { env: { NO_COLOR: "1" } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/BAKO/);
    expect(table.stdout).not.toMatch(/TICKER|token_ticker/);
  });

  it("csv and table show the same detail fields", async () => {
    const csv = await cli([...q, "--fields", "token_ticker,market_cap", "-o", "csv"]);
    expect(csv.stdout).toBe(`token_ticker,market_cap\nBAKO,${bako().market_cap}\n`);
    const table = await cli([...q, "--fields", "token_ticker,market_cap", "-o", "table"], {
      env: { NO_COLOR: "1" },
    });
    expect(table.stdout).not.toMatch(/Sandbox answer/);
    expect(table.stdout).toMatch(/TICKER\s+MCAP/);
  });

  it("an unknown field is a usage error that names what ask has", async () => {
    const r = await cli([...q, "--fields", "nlp", "--json"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^tokenintel: --fields: unknown field "nlp" for ask \(its answer has/);
  });
});
