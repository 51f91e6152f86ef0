import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { WAITING_TEXT } from "../../../src/commands/ask/deep.js";
import { ENDPOINTS } from "../../../src/contract/endpoints.js";
import { displayWidth } from "../../../src/output/width.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";
import { useMcp } from "../mcp-client.js";

// ask --deep, in-process through run(): the provider's written analysis (POST /v1/mcp) from the
// sandbox and from servers that answer otherwise; rendered on a terminal, raw in a pipe, JSON with
// --json; its price refused before anything is signed when a cap does not allow it; the MCP ask
// tool's deep argument.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_deep`;
const WALLET = generatePrivateKey();
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY, WALLET.slice(2));
const connect = useMcp(() => [KEY, WALLET.slice(2)]);

const PATH = ENDPOINTS["market-analysis"].path;
const cli = (args: string[], o: { env?: Record<string, string>; base?: string; dir?: string } = {}) =>
  run(["--base-url", o.base ?? sandbox.url, ...args], o.dir ?? servers.folder(), {
    env: { TOKENINTEL_API_KEY: KEY, ...o.env },
  });
const paying = (args: string[], base: string, dir: string) =>
  run(["--base-url", base, ...args], dir, { env: { TOKENINTEL_WALLET_KEY: WALLET } });
const ledger = (dir: string) =>
  existsSync(join(dir, "data", "payments.jsonl"))
    ? readFileSync(join(dir, "data", "payments.jsonl"), "utf8")
    : "";
const named = () => sandbox.data.list("base", undefined).slice(40, 42);
const question = () =>
  `should I hold ${named()
    .map((t) => `$${t.symbol}`)
    .join(" or ")} this week?`;

describe("ask --deep", () => {
  it("piped, the analysis as written: one POST to /v1/mcp/ with the question, the same text every time", async () => {
    const before = sandbox.stats.byPath[PATH] ?? 0;
    const raw = await cli(["ask", "--deep", question()]);
    expect(raw.code, raw.stderr).toBe(0);
    expect((sandbox.stats.byPath[PATH] ?? 0) - before).toBe(1);
    const json = await cli(["ask", "--deep", question(), "--json"]);
    const answer = JSON.parse(json.stdout) as { nlpResponse: string };
    expect(raw.stdout).toBe(`${answer.nlpResponse}\n`);
    // About the tokens named, with their own market figures.
    for (const t of named()) {
      const mcap = (sandbox.data.marketRecord(t).token_metrics as Record<string, string>).mcap!;
      expect(raw.stdout).toContain(`### $${t.symbol}`);
      expect(raw.stdout).toContain(`$${mcap}`);
    }
    expect(raw.stdout.split("\n\n").length).toBeGreaterThan(4);
    expect((await cli(["ask", "--deep", question()])).stdout).toBe(raw.stdout);
    expect(raw.stderr).toBe("");
  });

  it("on a terminal, rendered at its width; --fields nlpResponse in JSON gives that key alone", async () => {
    const r = await cli(["ask", "--deep", question()], {
      env: { TOKENINTEL_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "50" },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^#|\*\*/m);
    expect(r.stdout).toMatch(/^Market analysis$/m);
    for (const line of r.stdout.split("\n"))
      if (line.trim().includes(" ")) expect(displayWidth(line), line).toBeLessThanOrEqual(50);
    const json = await cli(["ask", "--deep", question(), "--json", "--fields", "nlpResponse"]);
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual(["nlpResponse"]);
  });

  it("sends the question alone, with the key; the service's escape sequences never reach the output", async () => {
    const bodies: unknown[] = [];
    const server = await servers.stub((req, res, seen) => {
      expect(`${req.method} ${req.url}`).toBe(`POST ${PATH}`);
      bodies.push(JSON.parse(seen.body));
      sendJson(res, { nlpResponse: "# Title\x1b]0;owned\x07\n\nplain \x1b[2Jtext" });
    });
    const r = await cli(["ask", "--deep", "  how is $AERO?  "], { base: server.url });
    expect(r.code, r.stderr).toBe(0);
    expect(bodies).toEqual([{ api_key: KEY, question: "how is $AERO?" }]);
    expect(r.stdout).toBe("# Title\n\nplain text\n");
    const shown = await cli(["ask", "--deep", "how is $AERO?", "-o", "table"], { base: server.url });
    expect(shown.stdout).toBe("Title\n\nplain text\n\n");
  });

  it("usage errors before any request: a chain, --explain, columns, csv, a token detail field", async () => {
    const before = sandbox.stats.requests;
    for (const [args, message] of [
      [["--chain", "base"], /leave out --chain \(name the chain in the question\)/],
      [["--explain"], /leave out --explain/],
      [["--wide", "--columns", "market_cap"], /leave out --columns, --wide/],
      [["-o", "csv"], /ask --deep writes markdown or JSON, not csv/],
      [["--fields", "market_cap"], /--fields: market_cap is not in the written analysis/],
    ] as const) {
      const r = await cli(["ask", "--deep", "how is $AERO?", ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(sandbox.stats.requests).toBe(before);
  });
});

describe("ask --deep: the wait", () => {
  it("after a second on a terminal, a waiting line on stderr, erased when the analysis comes", async () => {
    const slow = await servers.sandbox({ apiKey: KEY, latencyMs: 1300 });
    const tty = { TOKENINTEL_FORCE_TTY: "1", NO_COLOR: "1" };
    const r = await cli(["ask", "--deep", "how is $AERO?"], { base: slow.url, env: tty });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`\r\x1b[2K${WAITING_TEXT}\r\x1b[2K`);
    expect(WAITING_TEXT).toBe("waiting for the written analysis (it takes 5-15 s)...");
    // Piped: nothing on stderr; quick: no line.
    const piped = await cli(["ask", "--deep", "how is $AERO?"], { base: slow.url });
    expect(piped.stderr).toBe("");
    const quick = await cli(["ask", "--deep", "how is $AERO?"], { env: tty });
    expect(quick.stderr).toBe("");
  });
});

describe("ask --deep --pay: 0.10 USDC a question", () => {
  it("refused before any request when --max-payment, --max-spend or the daily cap does not allow it", async () => {
    const s = await servers.sandbox();
    const dir = servers.folder();
    for (const [caps, message] of [
      [
        [],
        /^tokenintel: the written analysis \(--deep\) costs 0\.10 USDC a question, over --max-payment 0\.01 \(raise it: --max-payment 0\.10\)\n$/,
      ],
      [
        ["--max-payment", "0.10", "--max-spend", "0.05"],
        /\(--deep\) costs 0\.10 USDC a question, which would bring the run's total to 0\.1 USDC, over --max-spend 0\.05 \(raise it: --max-spend 0\.1\)/,
      ],
      [
        ["--max-payment", "0.10", "--daily-cap", "0.05"],
        /\(--deep\) costs 0\.10 USDC a question, which the daily cap does not allow .*over the daily cap 0\.05 \(--daily-cap\)/,
      ],
    ] as const) {
      const r = await paying(["ask", "--deep", "how is $AERO?", "--pay", ...caps], s.url, dir);
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(message);
    }
    expect(s.stats.requests).toBe(0);
    expect(ledger(dir)).toBe("");
  });

  it("paid at 0.10 when --max-payment allows it: one payment, in the ledger", async () => {
    const s = await servers.sandbox();
    const dir = servers.folder();
    const r = await paying(["ask", "--deep", "how is $AERO?", "--pay", "--max-payment", "0.10"], s.url, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("### $AERO");
    expect(r.stderr).toMatch(/paid 1 request, 0\.1 USDC on Base/);
    expect(s.stats.payments).toEqual({ accepted: 1, refused: 0 });
    expect(ledger(dir)).toMatch(/"kind":"signed".*"endpoint":"[^"]*\/v1\/mcp\/".*"amount":"0\.100000"/);
  });
});

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe("the MCP ask tool's deep argument", () => {
  it("is listed with its price, and answers the written analysis", async () => {
    const { client } = await connect(servers.folder(), ["--base-url", sandbox.url, "mcp"], {
      TOKENINTEL_API_KEY: KEY,
    });
    const { tools } = await client.listTools();
    const ask = tools.find((t) => t.name === "ask")!;
    const deep = (ask.inputSchema.properties as Record<string, { type: string; description: string }>).deep!;
    expect(deep.type).toBe("boolean");
    expect(deep.description).toContain("0.10 USDC");
    const r = await client.callTool({ name: "ask", arguments: { question: "how is $AERO?", deep: true } });
    expect((r as CallToolResult).isError, text(r)).toBeFalsy();
    const answer = (r as CallToolResult).structuredContent as { answer: { by: string; text: string } };
    expect(answer.answer.by).toBe("service");
    expect(answer.answer.text).toContain("### $AERO");
    const refused = await client.callTool({
      name: "ask",
      arguments: { question: "how is $AERO?", deep: true, chain: "base" },
    });
    expect((refused as CallToolResult).isError).toBe(true);
    expect(text(refused)).toMatch(/leave out chain/);
  });

  it("under mcp --pay, refused before anything is signed when the server's caps do not allow 0.10", async () => {
    const s = await servers.sandbox();
    const folder = servers.folder();
    const { client } = await connect(folder, ["--base-url", s.url, "mcp", "--pay"], {
      TOKENINTEL_API_KEY: "",
      TOKENINTEL_WALLET_KEY: WALLET,
    });
    const r = await client.callTool({ name: "ask", arguments: { question: "how is $AERO?", deep: true } });
    expect((r as CallToolResult).isError).toBe(true);
    expect(text(r)).toMatch(
      /the written analysis \(deep\) costs 0\.10 USDC a question, over --max-payment 0\.01/,
    );
    expect(s.stats.requests).toBe(0);
    expect(ledger(folder)).toBe("");
  });
});
