import { describe, expect, it } from "vitest";
import type { SandboxOptions, SandboxServer } from "../../../src/sandbox/server.js";
import { run } from "../../commands/harness.js";
import { useKeyedSandbox } from "../../commands/sandbox-runs.js";
import { sendJson } from "../hostile-server.js";
import { inTerminal, plain } from "../terminal-session.js";

// ta against the shapes the provider documents, in-process through run() (in a terminal, the built
// binary): records keyed token_id, the symbol under token_info or at the top level, the grid of each
// view, --wide, the older flat form, and records deduplicated by token_id.

const { KEY, servers, dir, sandbox, cliAt: at } = useKeyedSandbox("ta-shapes");
const start = (options: SandboxOptions = {}): Promise<SandboxServer> =>
  servers.sandbox({ apiKey: KEY, ...options });

describe("TA as the provider documents it", () => {
  it("reads records keyed token_id, with the symbol under token_info or at the top level", async () => {
    const r = await at(sandbox, ["ta", "-c", "base", "--limit", "6", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(6);
    expect(records.every((x) => typeof x.token_id === "string" && !("id" in x))).toBe(true);
    expect(records.some((x) => "token_symbol" in x) && records.some((x) => "token_info" in x)).toBe(true);
    // --fields and --sort work on whichever form is present.
    const sorted = await at(sandbox, [
      "ta",
      "-c",
      "base",
      "--limit",
      "6",
      "--sort",
      "token_id",
      "--fields",
      "token_id",
    ]);
    expect(sorted.code, sorted.stderr).toBe(0);
    const ids = (JSON.parse(sorted.stdout) as Array<{ token_id: string }>).map((x) => x.token_id);
    expect(ids).toEqual([...ids].sort());
  });

  const views: Array<[string, RegExp, RegExp]> = [
    ["change", /^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w\s+30d\s+RSI 1d$/, /[+-]\d+\.\d\d%/],
    ["rsi", /^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w$/, /\d+\.\d (OB|OS)/],
    ["support", /^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w$/, /\d\.\d/],
    ["resistance", /^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w$/, /\d\.\d/],
    ["sma", /^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w$/, /\d\.\d/],
  ];
  for (const [view, header, cell] of views) {
    it(`--view ${view}: a grid in a terminal, one row per token, one column per interval sent`, async () => {
      const args = [
        "--base-url",
        sandbox.url,
        "--api-key",
        KEY,
        "ta",
        "-c",
        "base",
        "--limit",
        "5",
        "--view",
        view,
      ];
      const session = inTerminal(args, dir.path, { NO_COLOR: "1" });
      expect(await session.exited).toBe(0);
      const lines = plain(session.screen()).filter((l) => l.trim());
      expect(lines[0]!.trimEnd()).toMatch(header);
      expect(lines).toHaveLength(6);
      const symbols = sandbox.data
        .list("base", undefined)
        .slice(0, 5)
        .map((t) => t.symbol);
      for (const [i, symbol] of symbols.entries()) expect(lines[i + 1]!.startsWith(symbol)).toBe(true);
      expect(lines.slice(1).join("\n")).toMatch(cell);
    });
  }

  it("--wide shows the RSI of every interval beside the changes", async () => {
    const r = await at(sandbox, ["ta", "-c", "base", "--limit", "3", "--wide", "-o", "table"], {
      NO_COLOR: "1",
      COLUMNS: "300",
    });
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split("\n")[0]!;
    expect(header).toMatch(
      /30d\s+RSI 1d\s+RSI 1m\s+RSI 5m\s+RSI 15m\s+RSI 1h\s+RSI 4h\s+RSI 1w\s+NAME\s+UPDATED/,
    );
    // Each interval's RSI once: 1d is the view's own column, not repeated among the wide ones.
    expect(header.match(/RSI 1d/g)).toHaveLength(1);
  });

  it("the flat form is still read (the sandbox serves it on request)", async () => {
    const flat = await start({ taStyle: "flat" });
    const r = await at(flat, ["ta", "-c", "base", "--limit", "3", "-o", "table"], { NO_COLOR: "1" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w\s+30d\s+RSI$/);
  });
});

describe("identity wherever it is", () => {
  it("symbols at the top level fill the SYMBOL column; records are deduplicated by token_id", async () => {
    const page = (n: number) =>
      n === 1
        ? [
            { token_id: "t1", token_symbol: "AAA", token_metrics: { price_change_percentage_1h: "1.5" } },
            { token_id: "t2", token_symbol: "BBB", token_metrics: { price_change_percentage_1h: -2 } },
          ]
        : [{ token_id: "t2", token_symbol: "BBB", token_metrics: { price_change_percentage_1h: -2 } }];
    const server = await servers.stub((req, res) => {
      const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
      sendJson(res, { data: n <= 2 ? page(n) : [] });
    });
    const table = await run(["--base-url", server.url, "ta", "-o", "table", "--color", "never"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SYMBOL\s+1h\s+RSI$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(["AAA", "BBB"]);
    expect(lines[2]).toMatch(/-2\.00%/);
  });
});
