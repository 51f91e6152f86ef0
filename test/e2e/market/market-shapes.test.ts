import { describe, expect, it } from "vitest";
import type { SandboxOptions, SandboxServer } from "../../../src/sandbox/server.js";
import { useKeyedSandbox } from "../../commands/sandbox-runs.js";

// market against the newer record's numbers, in-process through run(): market_cap_usd and JSON
// numbers read like mcap and decimal strings.

const { KEY, servers, cliAt: at } = useKeyedSandbox("market-shapes");
const start = (options: SandboxOptions = {}): Promise<SandboxServer> =>
  servers.sandbox({ apiKey: KEY, ...options });

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
