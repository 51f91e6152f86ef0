import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { SandboxOptions, SandboxServer } from "../../../src/sandbox/server.js";
import { run } from "../../commands/harness.js";
import { neverShown, useServers } from "../fixtures.js";

// x402 on Polygon and Base, in-process through run() against sandboxes that offer one network or
// both: each paid and verified in v1 and v2, the first offer taken, --pay-network and config
// pay-network choosing among several.

const WALLET = generatePrivateKey();
const servers = useServers();
const dir = { path: servers.folder() };
const start = (options: SandboxOptions = {}): Promise<SandboxServer> => servers.sandbox(options);
neverShown(WALLET.slice(2));

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
