import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { assessRisk } from "../../../src/risk/rules.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";
import { useMcp } from "../mcp-client.js";

// check and the service's own verdict, in-process through run(): the agents endpoint's rug_status
// read for the tokens named and joined to their market records, against the sandbox (where
// `agents` calls ZILAIX HIGH_RISK while its market figures alone make it medium) and against an
// agents endpoint that fails.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_verdict`;
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);
const connect = useMcp(() => [KEY]);

const cli = (args: string[], base = sandbox.url) =>
  run(["--base-url", base, ...args], servers.folder(), {
    env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_RETRIES: "0" },
  });
type Row = {
  symbol: string;
  level: string;
  rug_status: string | null;
  reasons: Array<{ rule: string; level: string }>;
};

describe("check reads the service's own verdict", () => {
  it("ZILAIX: agents says HIGH_RISK, its market figures alone say medium; check --fail-on high exits 3", async () => {
    const agents = await cli(["agents", "-c", "base", "--tickers", "ZILAIX", "--json"]);
    expect(agents.code, agents.stderr).toBe(0);
    const [agent] = JSON.parse(agents.stdout) as Array<{ rug_status: string }>;
    expect(agent!.rug_status).toBe("HIGH_RISK");
    const token = sandbox.data.findBySymbols("base", ["ZILAIX"])[0]!;
    // What check said when it read market records alone.
    expect(assessRisk(sandbox.data.marketRecord(token)).level).toBe("medium");

    const r = await cli(["check", "-c", "base", "--tickers", "ZILAIX", "--fail-on", "high", "--json"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe("tokenintel: the token named is at high risk or above (--fail-on high): ZILAIX\n");
    const [row] = JSON.parse(r.stdout) as Row[];
    expect(row).toMatchObject({ symbol: "ZILAIX", level: "high", rug_status: "HIGH_RISK" });
    expect(row!.reasons.filter((x) => x.level === "high").map((x) => x.rule)).toEqual([
      "rug status (agents)",
    ]);
  });

  it("by address and by id too; a token outside the agents' ecosystem is judged without it and says so", async () => {
    const [zilaix] = sandbox.data.findBySymbols("base", ["ZILAIX"]);
    const outside = sandbox.data.list("base", undefined).find((t) => t.ecosystem !== "virtuals")!;
    for (const args of [
      ["--addresses", `${zilaix!.address.toUpperCase().replace("0X", "0x")},${outside.address}`],
      ["--ids", `${zilaix!.id},${outside.id}`],
    ]) {
      const r = await cli(["check", "-c", "base", ...args, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const rows = JSON.parse(r.stdout) as Array<Row & { notes: string[] }>;
      expect(rows.map((x) => [x.symbol, x.rug_status, x.notes.length])).toEqual([
        [zilaix!.symbol, "HIGH_RISK", 0],
        [outside.symbol, null, 1],
      ]);
    }
  });

  it("the MCP check tool gives the same verdict", async () => {
    const { client } = await connect(servers.folder(), ["--base-url", sandbox.url, "mcp"], {
      TOKENINTEL_API_KEY: KEY,
    });
    const r = (await client.callTool({
      name: "check",
      arguments: { chain: "base", tickers: ["ZILAIX"] },
    })) as CallToolResult;
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const { records } = r.structuredContent as { records: Row[] };
    expect(records[0]).toMatchObject({ level: "high", rug_status: "HIGH_RISK" });
  });

  it("an agents endpoint that fails fails the run, naming it: no verdict is given without it", async () => {
    for (const answer of [
      { status: 500, body: { success: false } },
      { status: 200, body: { success: false, message: "agents down" } },
    ]) {
      const failing = await servers.stub((req, res) => {
        const url = new URL(req.url ?? "/", "http://x");
        if (url.pathname === "/v1/agents") return sendJson(res, answer.body, answer.status);
        sendJson(res, { success: true, data: [sandbox.data.marketRecord(sandbox.data.token("base", 31)!)] });
      });
      const r = await cli(["check", "-c", "base", "--tickers", "AERO", "--fail-on", "high"], failing.url);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^tokenintel: the agents endpoint \(rug status\): HTTP (500|200)/);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
