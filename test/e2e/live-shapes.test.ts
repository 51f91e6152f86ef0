import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { SandboxOptions, SandboxServer } from "../../src/sandbox/server.js";
import { run } from "../commands/harness.js";
import { neverShown, useSandbox, useServers } from "./fixtures.js";
import { sendJson } from "./hostile-server.js";
import { inTerminal, plain } from "./terminal-session.js";

// The live service's documented shapes (live-notes, "Shapes in the provider's public docs"): the program
// (in-process through run(); in a terminal, the built binary) against sandboxes that serve each of them.

const KEY = `sk_live_${Math.random().toString(36).slice(2)}_shapes`;
const WALLET = generatePrivateKey();
const servers = useServers();
const dir = { path: servers.folder() };
const start = (options: SandboxOptions = {}): Promise<SandboxServer> =>
  servers.sandbox({ apiKey: KEY, ...options });

const sandbox = useSandbox({ apiKey: KEY }); // documented TA is the default
neverShown(KEY, WALLET.slice(2));

const at = (s: SandboxServer, args: string[], env: Record<string, string> = {}) =>
  run(["--base-url", s.url, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY, ...env } });
const requests = (s: SandboxServer, path: string) => s.stats.byPath[path] ?? 0;

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

describe("agents by addresses and ids", () => {
  it("--addresses and --ids send agent_addresses and agent_ids, 30 to a request", async () => {
    const agents = sandbox.data.list("base", "virtuals").slice(0, 35);
    for (const [flag, param, values] of [
      ["--addresses", "agent_addresses", agents.map((t) => t.address)],
      ["--ids", "agent_ids", agents.map((t) => t.id)],
    ] as const) {
      const before = requests(sandbox, "/v1/agents");
      const r = await at(sandbox, ["agents", "-c", "base", flag, values.join(","), "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const records = JSON.parse(r.stdout) as Array<{ id: string }>;
      expect(records.map((x) => x.id)).toEqual(agents.map((t) => t.id));
      expect(requests(sandbox, "/v1/agents") - before, param).toBe(2);
    }
  });

  it("shows rug_status when sent and never requires it", async () => {
    const server = await servers.stub((_req, res) =>
      sendJson(res, { success: true, data: [{ id: "a1", agent_info: { symbol: "NORUG" } }] }),
    );
    const r = await run(
      ["--base-url", server.url, "agents", "-c", "base", "-o", "table", "--color", "never"],
      dir.path,
      {
        env: { TOKENINTEL_API_KEY: KEY },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/NORUG/);
  });
});

describe("ask", () => {
  it("reads the bare answer of the provider's docs as well as {success, data}", async () => {
    const bare = await start({ askStyle: "bare" });
    const token = bare.data.list("base", undefined)[33]!;
    for (const s of [bare, sandbox]) {
      const r = await at(s, ["ask", `how is $${token.symbol} doing`, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const answer = JSON.parse(r.stdout) as {
        nlpResponse: string;
        tokenDetails: Array<{ token_id: string }>;
      };
      expect(answer.nlpResponse).toMatch(new RegExp(`\\*\\*${token.symbol}\\*\\*`));
      expect(answer.tokenDetails.map((d) => d.token_id)).toEqual([token.id]);
    }
  });

  it("an answer without tokenDetails prints the answer alone", async () => {
    const server = await servers.stub((_req, res) =>
      sendJson(res, { questionId: "q", answerId: "a", nlpResponse: "Calm day." }),
    );
    const r = await run(
      ["--base-url", server.url, "ask", "anything", "-o", "table", "--color", "never"],
      dir.path,
      {
        env: { TOKENINTEL_API_KEY: KEY },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Calm day\./);
  });
});

describe("pagination in both key sets", () => {
  const virtualsPages = (s: SandboxServer) => Math.ceil(s.data.list("base", "virtuals").length / 30);
  for (const [name, options] of [
    ["{pageCount, total}", { paginationKeys: "page-count" }],
    ["{totalPages, totalRecords}", { paginationKeys: "total-pages" }],
    ["{totalPages, totalRecords} as strings", { paginationKeys: "total-pages", paginationStrings: true }],
    ["{pageCount, total} as strings", { paginationKeys: "page-count", paginationStrings: true }],
  ] as Array<[string, SandboxOptions]>) {
    it(`${name}: walks exactly the pages the count names`, async () => {
      const s = await start(options);
      const r = await at(s, ["--concurrency", "4", "market", "-c", "base", "-e", "virtuals", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as unknown[]).length).toBe(s.data.list("base", "virtuals").length);
      expect(requests(s, "/v1/crypto-market/")).toBe(virtualsPages(s));
    });
  }
});

describe("numbers", () => {
  it("market_cap_usd and JSON numbers read like mcap and decimal strings", async () => {
    const s = await start({ marketStyle: "numbers" });
    const r = await at(
      s,
      [
        "market",
        "-c",
        "base",
        "-e",
        "virtuals",
        "--limit",
        "5",
        "-o",
        "table",
        "--sort",
        "token_metrics.market_cap_usd:desc",
      ],
      {
        NO_COLOR: "1",
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    const mcapAt = lines[0]!.indexOf("MCAP");
    expect(mcapAt).toBeGreaterThan(0);
    for (const line of lines.slice(1)) expect(line.slice(mcapAt - 4, mcapAt + 6)).toMatch(/\$\d/);
  });
});

describe("x402 on Polygon and Base", () => {
  const pay = (s: SandboxServer, extra: string[] = []) =>
    run(
      ["--base-url", s.url, "directory", "-c", "base", "--limit", "100", "--pay", ...extra, "--json"],
      dir.path,
      {
        env: { TOKENINTEL_WALLET_KEY: WALLET },
      },
    );
  for (const [name, networks, expected] of [
    ["Polygon only", ["polygon"], "Polygon"],
    ["Base only", ["base"], "Base"],
    ["Polygon and Base: the first offer", ["polygon", "base"], "Polygon"],
  ] as const) {
    for (const version of [1, 2] as const) {
      it(`${name}, x402 v${version}: paid and verified by the reference verifier`, async () => {
        const s = await start({ x402Networks: [...networks], x402Version: version });
        const r = await pay(s);
        expect(r.code, r.stderr).toBe(0);
        expect((JSON.parse(r.stdout) as unknown[]).length).toBe(100);
        expect(s.stats.payments).toEqual({ accepted: 1, refused: 0 });
        expect(r.stderr).toMatch(new RegExp(`paid 1 request, 0\\.005 USDC on ${expected}, from 0x`));
      });
    }
  }

  it("--pay-network and config pay-network choose among several offers", async () => {
    const s = await start({ x402Networks: ["polygon", "base"] });
    const flag = await pay(s, ["--pay-network", "base"]);
    expect(flag.code, flag.stderr).toBe(0);
    expect(flag.stderr).toMatch(/0\.005 USDC on Base,/);
    const set = await run(["config", "set", "pay-network", "base"], dir.path);
    expect(set.code, set.stderr).toBe(0);
    const config = await pay(s);
    expect(config.stderr).toMatch(/0\.005 USDC on Base,/);
    await run(["config", "unset", "pay-network"], dir.path);
    const only = await start({ x402Networks: ["polygon"] });
    const refused = await pay(only, ["--pay-network", "base"]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/not on Base \(--pay-network base\)/);
    expect(only.stats.payments).toEqual({ accepted: 0, refused: 0 });
  });
});
