import { describe, expect, it } from "vitest";
import type { SandboxServer } from "../../src/sandbox/server.js";
import { useSandbox, useServers } from "../e2e/fixtures.js";
import { run } from "./harness.js";

// Issue 22 item 19: one token, one truth in the sandbox. market, ask, ta and agents tell the same
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
