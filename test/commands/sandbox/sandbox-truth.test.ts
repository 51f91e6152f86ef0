import { describe, expect, it } from "vitest";
import type { SandboxServer } from "../../../src/sandbox/server.js";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// One token, one truth in the sandbox. market, ask, ta and agents tell the same
// figures for a token, and --live moves markets by small steps, not to another token's scale.

const dir = { path: useServers().folder() };
const sandbox = useSandbox();
const live = useSandbox({ liveSeconds: 1 });

const cli = (server: SandboxServer, args: string[]) =>
  run(["--base-url", server.url, "--api-key", server.apiKey, ...args], dir.path);
type Rec = Record<string, Record<string, unknown>>;

describe("one token, one truth", () => {
  it("market, ask, ta and agents agree on a token's price, changes and holders", async () => {
    const tokens = sandbox.data.list("base", "virtuals").slice(10, 13);
    const ids = tokens.map((t) => t.id).join(",");
    const market = JSON.parse(
      (await cli(sandbox, ["market", "-c", "base", "--ids", ids, "--json"])).stdout,
    ) as Rec[];
    const ta = JSON.parse((await cli(sandbox, ["ta", "-c", "base", "--ids", ids, "--json"])).stdout) as Rec[];
    const agents = JSON.parse(
      (await cli(sandbox, ["agents", "-c", "base", "--ids", ids, "--json"])).stdout,
    ) as Rec[];
    let agentsCompared = 0;
    for (const t of tokens) {
      const m = market.find((r) => r.id === (t.id as unknown))!;
      const metrics = m.token_metrics!;
      const ask = JSON.parse(
        (await cli(sandbox, ["ask", `how is $${t.symbol}?`, "--chain", "base", "--json"])).stdout,
      ) as { tokenDetails: Array<Record<string, unknown>> };
      const detail = ask.tokenDetails.find((d) => d.token_id === t.id)!;
      expect(detail.current_usd_price, t.symbol).toBe(metrics.usd_price);
      expect(detail.last_24_hrs_price_change_percentage, t.symbol).toBe(metrics.price_change_percentage_24h);
      expect(detail.market_cap, t.symbol).toBe(metrics.mcap);
      const a = ta.find((r) => (r.token_id ?? r.id) === (t.id as unknown))!;
      const changes = (a.token_metrics ?? a) as Record<string, unknown>;
      expect(Number(changes.price_change_percentage_1d), t.symbol).toBe(
        Number(metrics.price_change_percentage_24h),
      );
      expect(Number(changes.price_change_percentage_1h)).toBe(Number(metrics.price_change_percentage_1h));
      expect(Number(changes.price_change_percentage_1w)).toBe(Number(metrics.price_change_percentage_7d));
      const agent = agents.find((r) => r.id === (t.id as unknown));
      if (agent && m.token_holder_insights) {
        expect(agent.agent_holder_insights!.total_holder_count).toBe(
          m.token_holder_insights.total_holder_count,
        );
        expect(agent.agent_metrics!.usd_price).toBe(metrics.usd_price);
        agentsCompared++;
      }
    }
    expect(agentsCompared).toBeGreaterThan(0);
  });

  it("--live moves prices by a few percent a tick, never by orders of magnitude", async () => {
    const token = live.data.list("base", undefined)[5]!;
    const price = async () => {
      const r = await cli(live, ["market", "-c", "base", "--ids", token.id, "--json"]);
      return Number((JSON.parse(r.stdout) as Rec[])[0]!.token_metrics!.usd_price);
    };
    const steps: number[] = [];
    let last = await price();
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1100));
      const now = await price();
      steps.push(now / last);
      last = now;
    }
    for (const s of steps) {
      expect(s).toBeGreaterThan(0.93);
      expect(s).toBeLessThan(1.07);
    }
    expect(steps.some((s) => s !== 1)).toBe(true);
  });
});

/** Every `*change*` percentage in a record, at any depth, with its path. */
function changes(value: unknown, at = ""): Array<[string, number]> {
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = at ? `${at}.${k}` : k;
    if (v && typeof v === "object") return changes(v, path);
    return /change/.test(k) && v !== null ? [[path, Number(v)] as [string, number]] : [];
  });
}

describe("the sandbox reads true", () => {
  const all = () => [...sandbox.data.list("base", undefined), ...sandbox.data.list("solana", undefined)];

  it("top 10 holders are among the top 50, who are among the top 100: shares and balances never fall", () => {
    let checked = 0;
    for (const t of all()) {
      for (const [record, section] of [
        [sandbox.data.marketRecord(t), "token_holder_insights"],
        [sandbox.data.agentRecord(t), "agent_holder_insights"],
      ] as const) {
        const h = record[section] as Record<string, string> | undefined;
        if (!h) continue;
        const pct = [10, 50, 100].map((n) => Number(h[`top_${n}_holder_percentage`]));
        const balance = [10, 50, 100].map((n) => Number(h[`top_${n}_holder_balance`]));
        expect(pct[0]!, `${t.symbol} ${section}`).toBeLessThanOrEqual(pct[1]!);
        expect(pct[1]!, t.symbol).toBeLessThanOrEqual(pct[2]!);
        expect(pct[2]!, t.symbol).toBeLessThanOrEqual(100);
        expect(balance[0]!, t.symbol).toBeLessThanOrEqual(balance[1]!);
        expect(balance[1]!, t.symbol).toBeLessThanOrEqual(balance[2]!);
        // Half the supply is in fewer than 10 wallets only when the top 10 hold half.
        const fifty = Number(h.fifty_percentage_holding_wallet_count);
        expect(fifty <= 10, t.symbol).toBe(pct[0]! >= 50);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it("no change is 100% down or more: market, agents, TA and trending, as served", async () => {
    const records: unknown[] = all().flatMap((t) => [
      sandbox.data.marketRecord(t),
      sandbox.data.agentRecord(t),
      sandbox.data.taRecordDocumented(t),
    ]);
    const trending = await cli(sandbox, ["trending", "--json"]);
    records.push(...(JSON.parse(trending.stdout) as unknown[]));
    const staking = await cli(sandbox, ["staking", "--tickers", "VIRTUAL,AIXBT,LUNA,GAME", "--json"]);
    records.push(...(JSON.parse(staking.stdout) as unknown[]));
    const found = records.flatMap((r) => changes(r));
    expect(found.length).toBeGreaterThan(40_000);
    const worst = found.reduce((a, b) => (b[1] < a[1] ? b : a));
    expect(worst[1], worst[0]).toBeGreaterThan(-100);
    expect(found.every(([, v]) => Number.isFinite(v))).toBe(true);
  });

  it("market caps are those of listed tokens ($10K to $50B); a token's TVL is a share of its market cap", async () => {
    const caps = all().map((t) => Number((sandbox.data.marketRecord(t).token_metrics as Rec[string]).mcap));
    expect(Math.min(...caps)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...caps)).toBeLessThanOrEqual(50e9);
    const tokens = sandbox.data.list("base", "virtuals").slice(0, 30);
    const r = await cli(sandbox, [
      "staking",
      "--addresses",
      tokens.map((t) => t.address).join(","),
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ staking_details: Record<string, number | string> }>;
    expect(rows).toHaveLength(30);
    for (const { staking_details: d } of rows) {
      const t = tokens.find((x) => x.address === d.contract_address)!;
      const m = sandbox.data.marketRecord(t).token_metrics as Record<string, string>;
      const ratio = Number(d.tvl) / Number(m.mcap);
      expect(ratio, `${t.symbol}: tvl ${d.tvl}, mcap ${m.mcap}`).toBeGreaterThanOrEqual(0.01);
      expect(ratio, `${t.symbol}: tvl ${d.tvl}, mcap ${m.mcap}`).toBeLessThanOrEqual(0.6);
      expect(d.price_change_percentage_24h).toBe(Number(m.price_change_percentage_24h));
    }
  });

  it("trending's default is --strategy mcap: the largest market caps of the chain, largest first", async () => {
    const ranked = async (args: string[]) => {
      const r = await cli(sandbox, ["trending", ...args, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Array<{ token_id: string; mcap: string; chain: string }>;
    };
    const byDefault = await ranked(["-c", "base"]);
    const byMcap = await ranked(["-c", "base", "--strategy", "mcap"]);
    expect(byDefault.map((x) => x.token_id)).toEqual(byMcap.map((x) => x.token_id));
    const caps = byDefault.map((x) => Number(x.mcap));
    expect(caps).toEqual([...caps].sort((a, b) => b - a));
    const largest = Math.max(
      ...sandbox.data
        .list("base", undefined)
        .map((t) => Number((sandbox.data.marketRecord(t).token_metrics as Rec[string]).mcap)),
    );
    expect(caps[0]).toBe(largest);
    // Without -c, every chain's tokens ranked together, as trending --help says.
    const every = await ranked([]);
    expect(new Set(every.map((x) => x.chain))).toEqual(new Set(["base", "solana"]));
    const everyCaps = every.map((x) => Number(x.mcap));
    expect(everyCaps).toEqual([...everyCaps].sort((a, b) => b - a));
    const help = await run(["trending", "--help"], dir.path);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "without it (and no default chain set), every chain's tokens are ranked together",
    );
  });
});
