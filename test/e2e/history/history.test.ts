import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { drawChart } from "../../../src/commands/history/chart.js";
import { displayWidth } from "../../../src/output/width.js";
import { run } from "../../commands/harness.js";
import { neverShown, useSandbox, useServers } from "../fixtures.js";
import type { HostileServer } from "../hostile-server.js";
import { inTerminal, plain } from "../terminal-session.js";

// `tokenintel history` run in-process through run() (in a terminal: the built binary) against the sandbox
// (1,100 days a token, so a whole history takes two 1,000-day pages) and against a scripted server.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_hist`;
const servers = useServers();
const dir = { path: servers.folder() };
const PATH = "/v1/crypto-market-historical";
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const cli = (args: string[], base = sandbox.url, env: Record<string, string> = {}) =>
  run(["--base-url", base, "history", ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY, ...env } });

type Series = { token_id: string; token_symbol: string; days: Array<Record<string, string>> };
const today = new Date().toISOString().slice(0, 10);

describe("history", () => {
  it("walks 1,000-day pages to the end, oldest day first, today's price the market's to the digit", async () => {
    const token = sandbox.data.list("base", undefined)[3]!;
    const before = sandbox.stats.byPath[PATH] ?? 0;
    const r = await cli(["-c", "base", "--tickers", token.symbol, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect((sandbox.stats.byPath[PATH] ?? 0) - before).toBe(2);
    const [series] = JSON.parse(r.stdout) as Series[];
    expect(series!.token_id).toBe(token.id);
    expect(series!.days).toHaveLength(1100);
    const dates = series!.days.map((d) => d.date_time!);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(1100);
    expect(dates[dates.length - 1]).toBe(today);
    const market = sandbox.data.marketRecord(token).token_metrics as Record<string, string>;
    expect(series!.days[1099]!.usd_price).toBe(market.usd_price);
  });

  it("several tokens: in the order named; NDJSON and CSV carry each token's id and symbol; a missing day stays missing", async () => {
    const tokens = sandbox.data.list("base", undefined);
    const gappy = tokens.find((t) => t.index % 11 === 5)!; // the sandbox leaves out its day 20 back
    const other = tokens[8]!;
    const nd = await cli(["-c", "base", "--ids", `${gappy.id},${other.id}`, "--since", "30d", "--ndjson"]);
    expect(nd.code, nd.stderr).toBe(0);
    const lines = nd.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, string>);
    const ofGappy = lines.filter((l) => l.token_id === gappy.id);
    expect(lines[0]!.token_id).toBe(gappy.id);
    expect(lines[lines.length - 1]!.token_id).toBe(other.id);
    expect(ofGappy).toHaveLength(30); // 31 days, one missing, none invented
    for (const l of ofGappy) expect(Number(l.usd_price)).toBeGreaterThan(0);
    const csv = await cli(["-c", "base", "--ids", other.id, "--since", "2d", "-o", "csv"]);
    expect(csv.stdout.split("\n")[0]).toBe(
      "token_id,token_symbol,date_time,usd_price,total_volume,market_cap",
    );
    expect(csv.stdout.trimEnd().split("\n")).toHaveLength(4);
  });

  it("an unknown token is named on stderr, exit 1 with --strict; bad days are exit 2 naming them", async () => {
    const known = sandbox.data.list("base", undefined)[0]!.symbol;
    const r = await cli(["-c", "base", "--tickers", `${known},NOPEZZ`, "--since", "3d", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("no history on base for NOPEZZ");
    expect((JSON.parse(r.stdout) as Series[]).map((s) => s.token_symbol)).toEqual([known]);
    const strict = await cli([
      "-c",
      "base",
      "--tickers",
      `${known},NOPEZZ`,
      "--since",
      "3d",
      "--json",
      "--strict",
    ]);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toHaveLength(1);
    for (const [args, message] of [
      [["--since", "2026-02-30"], '--since: "2026-02-30" is not a day of the calendar (YYYY-MM-DD)'],
      [["--since", "yesterday"], '--since: "yesterday" is neither a date'],
      [["--since", "6m"], '--since: "6m" is 6 minutes, and history is daily: for 6 months write 6mo'],
      [["--since", "99999y"], '--since: "99999y" reaches back more than 20 years'],
      [["--since", "2026-03-02", "--until", "2026-03-01"], "--since 2026-03-02 is after --until 2026-03-01"],
    ] as const) {
      const bad = await cli(["-c", "base", "--tickers", known, ...args]);
      expect(bad.code, args.join(" ")).toBe(2);
      expect(bad.stderr).toContain(message);
    }
  });
});

describe("history against a scripted server", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await servers.stub((_req, res) => {
      res.setHeader("content-type", "application/json");
      const days = ["2026-01-03", "2026-01-02", "2026-01-01"].map((date_time, i) => ({
        date_time,
        usd_price: `0.00000000000000000000${i + 1}23456789`,
        total_volume: "1",
        market_cap: "2",
      }));
      res.end(
        JSON.stringify({
          success: true,
          data: { token_id: "t", token_symbol: "EXACT", token_day_metrics: days },
        }),
      );
    });
  });

  it("passes the days and the token as the service names them, and keeps every digit", async () => {
    const r = await cli(
      ["-c", "solana", "--addresses", "Mint111", "--since", "2026-01-01", "--until", "2026-01-03", "--json"],
      server.url,
    );
    expect(r.code, r.stderr).toBe(0);
    const q = new URL(server.requests[0]!.url, "http://x").searchParams;
    expect([
      q.get("chain"),
      q.get("token_address"),
      q.get("start_date"),
      q.get("end_date"),
      q.get("page"),
    ]).toEqual(["solana", "Mint111", "2026-01-01", "2026-01-03", "1"]);
    expect(server.requests).toHaveLength(1); // a short page is the last
    expect(r.stdout).toContain('"usd_price": "0.00000000000000000000323456789"');
    const [series] = JSON.parse(r.stdout) as Series[];
    expect(series!.days.map((d) => d.date_time)).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
  });
});

describe("the chart", () => {
  it("pays per page without a key, under the daily cap, and keeps the days paid for when a cap stops it", async () => {
    const wallet = { TOKENINTEL_API_KEY: "", TOKENINTEL_WALLET_KEY: generatePrivateKey() };
    const [a, b] = sandbox.data.list("base", undefined).slice(5, 7);
    const accepted = sandbox.stats.payments.accepted;
    const dry = await cli(
      ["-c", "base", "--tickers", `${a!.symbol},${b!.symbol}`, "--dry-run"],
      sandbox.url,
      wallet,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain("dry run: would pay 0.005 USDC on Base per request");
    expect(sandbox.stats.payments.accepted).toBe(accepted);
    // Each whole history is two pages: the cap lets three of the four be paid.
    const r = await cli(
      ["-c", "base", "--tickers", `${a!.symbol},${b!.symbol}`, "--pay", "--daily-cap", "0.015", "--ndjson"],
      sandbox.url,
      wallet,
    );
    expect(r.code).toBe(5);
    expect(sandbox.stats.payments.accepted).toBe(accepted + 3);
    expect(r.stderr).toContain("over the daily cap 0.015 (--daily-cap)");
    const bySymbol = (out: string) => {
      const groups = new Map<string, string[]>();
      for (const line of out.trim().split("\n")) {
        const day = JSON.parse(line) as { token_symbol: string };
        groups.set(day.token_symbol, [...(groups.get(day.token_symbol) ?? []), line]);
      }
      return groups;
    };
    const keyed = await cli(["-c", "base", "--tickers", `${a!.symbol},${b!.symbol}`, "--ndjson"]);
    const whole = bySymbol(keyed.stdout);
    const paid = bySymbol(r.stdout);
    // One token's whole history, and the newest page of the other: every page paid for is printed.
    const complete = [a!.symbol, b!.symbol].filter((t) => paid.get(t)?.length === whole.get(t)!.length);
    expect(complete).toHaveLength(1);
    const partial = a!.symbol === complete[0] ? b!.symbol : a!.symbol;
    expect(paid.get(complete[0]!)).toEqual(whole.get(complete[0]!));
    expect(whole.get(partial)!.slice(-paid.get(partial)!.length)).toEqual(paid.get(partial));
    expect(paid.get(partial)!.length).toBeGreaterThan(900);
    expect(r.stderr).toContain(
      `history: ${partial} is printed from ${JSON.parse(paid.get(partial)![0]!).date_time} on; the days before it were not read`,
    );
    const ledger = readFileSync(join(dir.path, "data", "payments.jsonl"), "utf8");
    expect(ledger.match(/"kind":"signed"/g)).toHaveLength(3);
    expect(ledger).toContain(`"endpoint":"${sandbox.url}${PATH}?chain=base&token_ticker=`);
  });

  it("a missing day is a gap in the line, never a zero", () => {
    const points = Array.from({ length: 10 }, (_, i) => ({
      date: `2026-01-${String(i + 1).padStart(2, "0")}`,
      value: i === 5 ? undefined : 100 + i,
    }));
    const lines = drawChart(points, { width: 40, height: 6, label: (x) => x.toFixed(0) });
    const labels = lines.slice(0, -1).map((l) => Number(l.split("┤")[0]!.split("┼")[0]!.trim()));
    expect(Math.min(...labels)).toBeGreaterThanOrEqual(100); // no zero pulled the axis down
    // The steps into and out of day 6 (points 5 and 6 after the axis) are blank in every row.
    const start = lines[0]!.search(/[┤┼]/) + 1;
    for (const line of lines.slice(0, -1))
      expect(
        [...line]
          .slice(start + 4, start + 6)
          .join("")
          .trim(),
      ).toBe("");
    const whole = drawChart(
      points.map((p) => ({ ...p, value: p.value ?? 105 })),
      { width: 40, height: 6, label: (x) => x.toFixed(0) },
    );
    expect(
      whole.slice(0, -1).some(
        (l) =>
          [...l]
            .slice(start + 4, start + 6)
            .join("")
            .trim() !== "",
      ),
    ).toBe(true);
  });

  for (const columns of [40, 120]) {
    it(`in a terminal of ${columns} columns, every line fits; the summary says the change, high and low`, async () => {
      const symbol = sandbox.data.list("base", undefined)[3]!.symbol;
      const s = inTerminal(
        ["--base-url", sandbox.url, "history", "-c", "base", "--tickers", symbol, "--since", "1y"],
        dir.path,
        { TOKENINTEL_API_KEY: KEY, COLUMNS: String(columns) },
      );
      expect(await s.exited).toBe(0);
      const lines = plain(s.screen()).filter((l) => l.trim() !== "");
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      const text = lines.join("\n");
      expect(text).toMatch(new RegExp(`^${symbol} price \\d{4}-\\d\\d-\\d\\d → ${today}`, "m"));
      expect(text).toMatch(/\(([+-]\d+\.\d\d%)\)/);
      expect(text).toMatch(/high \$\S+ on \d{4}-\d\d-\d\d/);
      expect(text).toMatch(/low \$\S+ on \d{4}-\d\d-\d\d/);
      expect(lines.filter((l) => /[┤┼]/.test(l)).length).toBeGreaterThanOrEqual(8);
      expect(lines[lines.length - 1]).toMatch(new RegExp(`\\d{4}-\\d\\d-\\d\\d\\s+${today}$`));
    });
  }
});

describe("history distrusts its server", () => {
  const DAY_MS = 86_400_000;
  const dayOf = (i: number) => new Date(Date.UTC(2026, 0, 1) - i * DAY_MS).toISOString().slice(0, 10);
  const answer = (symbol: string, days: unknown[], pageCount?: number) =>
    JSON.stringify({
      success: true,
      data: { token_id: `id-${symbol}`, token_symbol: symbol, token_address: null, token_day_metrics: days },
      ...(pageCount ? { meta: { pagination: { page: 1, pageCount } } } : {}),
    });
  const asked = (url: string) => new URL(url, "http://x").searchParams;
  /** A server that answers each ticker with `days(page)`, claiming a billion pages. */
  const endless = (days: (page: number) => unknown[]) =>
    servers.stub((req, res) => {
      const q = asked(req.url!);
      res.setHeader("content-type", "application/json");
      res.end(answer(q.get("token_ticker")!, days(Number(q.get("page"))), 1_000_000_000));
    });
  const chart = { TOKENINTEL_OUTPUT: "table", COLUMNS: "100" };

  it("a chart and its headers print no escape from the server; a date that is no calendar day is left out, a day sent twice is said", async () => {
    const hostile = [
      "2026-01-05\x1b]52;c;SGVsbG8=\x07",
      "\x1b]0;owned\x07",
      "\x1b]8;;http://evil.example\x1b\\2026-01-04\x1b]8;;\x1b\\",
      "2026-01-03\x1b[2J",
      "2026-02-30",
    ];
    const valid = ["2026-01-03", "2026-01-02", "2026-01-02", "2026-01-01"];
    const server = await servers.stub((req, res) => {
      const symbol = asked(req.url!).get("token_ticker")!;
      const days = [...hostile, ...valid].map((date_time, i) => ({ date_time, usd_price: String(1 + i) }));
      res.end(answer(`${symbol}\x1b]52;c;eA==\x07`, days));
    });
    for (const args of [
      ["--tickers", "AAA"],
      ["--tickers", "AAA,BBB", "--normalize"],
    ]) {
      const r = await cli(["-c", "base", ...args], server.url, chart);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(r.stdout).toContain("2026-01-01");
      expect(r.stdout).not.toContain("2026-02-30");
      expect(r.stderr).toContain(
        "history: AAA: 5 days with a date that is not a calendar day (YYYY-MM-DD) left out",
      );
      expect(r.stderr).toContain("history: AAA: 1 day was sent twice; the first kept");
    }
    const json = await cli(["-c", "base", "--tickers", "AAA", "--json"], server.url);
    const [series] = JSON.parse(json.stdout) as Series[];
    expect(series!.days.map((d) => d.date_time)).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
  });

  it("hex, NaN and ±Infinity are not prices, and no axis is labelled with an infinity", async () => {
    const prices = ["0x10", "NaN", "Infinity", "-Infinity", "1e308", "-1e308", "1.5", "2.5"];
    const server = await servers.stub((_req, res) => {
      res.end(
        answer(
          "AAA",
          prices.map((usd_price, i) => ({ date_time: dayOf(i), usd_price })),
        ),
      );
    });
    const r = await cli(["-c", "base", "--tickers", "AAA"], server.url, chart);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("Infinity");
    expect(r.stdout).not.toContain("$16");
    expect(r.stdout).toContain("(8 days, 4 missing)");
    const one = await servers.stub((_req, res) => {
      res.end(answer("AAA", [{ date_time: dayOf(0), usd_price: "1.5" }]));
    });
    const single = await cli(["-c", "base", "--tickers", "AAA"], one.url, chart);
    expect(single.stdout).toMatch(/AAA price \S+ → \S+ \(1 day\)/);
    const only = await servers.stub((_req, res) => {
      res.end(
        answer(
          "AAA",
          ["0x10", "NaN", "1.5", "2.5"].map((usd_price, i) => ({ date_time: dayOf(i), usd_price })),
        ),
      );
    });
    const finite = await cli(["-c", "base", "--tickers", "AAA"], only.url, chart);
    expect(finite.stdout).toContain("high $2.5");
    expect(finite.stdout).toContain("low $1.5");
  });

  it("an answer for another token than asked is a warning, exit 1 with --strict", async () => {
    const server = await servers.stub((_req, res) => {
      res.end(answer("OTHER", [{ date_time: "2026-01-01", usd_price: "1" }]));
    });
    const r = await cli(["-c", "base", "--tickers", "ASKED", "--json"], server.url);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("tokenintel: warning: history: asked for ASKED, the server answered for OTHER\n");
    const strict = await cli(["-c", "base", "--tickers", "ASKED", "--json", "--strict"], server.url);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("the server answered for another token than asked for 1 of 1: ASKED");
    expect((JSON.parse(strict.stdout) as Series[])[0]!.token_symbol).toBe("OTHER");
  });

  it("a page repeated while the server claims a billion pages: the walk stops at the page that brings no new day", async () => {
    const server = await endless(() =>
      Array.from({ length: 1000 }, (_, i) => ({ date_time: dayOf(i), usd_price: "1" })),
    );
    const r = await cli(["-c", "base", "--tickers", "AAA", "--max-pages", "50", "--json"], server.url);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(r.stderr).toContain("history: AAA: page 2 brought no new day; stopped there");
    expect((JSON.parse(r.stdout) as Series[])[0]!.days).toHaveLength(1000);
  });

  it("six endless tickers end quickly: no series grows past 20 years of days", async () => {
    const server = await endless((page) =>
      Array.from({ length: 1000 }, (_, i) => ({ date_time: dayOf((page - 1) * 1000 + i), usd_price: "1" })),
    );
    const tickers = ["A1", "A2", "A3", "A4", "A5", "A6"];
    const started = Date.now();
    const r = await cli(["-c", "base", "--tickers", tickers.join(","), "--ndjson"], server.url);
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(server.requests).toHaveLength(6 * 8);
    for (const t of tickers)
      expect(r.stderr).toContain(
        `history: ${t}: more than 7,320 days (20 years, longer than any token has traded); stopped at page 8`,
      );
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(6 * 7320);
  }, 30_000);

  it("a token the server does not know (404) is named with the others missing; the rest print, exit 0 (1 with --strict)", async () => {
    const server = await servers.stub((req, res) => {
      const ticker = asked(req.url ?? "").get("token_ticker");
      if (ticker === "NOPE") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ success: false, message: "token not found" }));
        return;
      }
      res.end(answer(String(ticker), [{ date_time: dayOf(0), usd_price: "1.5" }]));
    });
    const r = await cli(["-c", "base", "--tickers", "AAA,NOPE", "--json"], server.url);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Series[]).map((s) => s.token_symbol)).toEqual(["AAA"]);
    expect(r.stderr).toBe("tokenintel: warning: no history on base for NOPE (HTTP 404: token not found)\n");
    const strict = await cli(["-c", "base", "--tickers", "AAA,NOPE", "--json", "--strict"], server.url);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("no history for 1 of 2 tokens: NOPE");
  });
});
