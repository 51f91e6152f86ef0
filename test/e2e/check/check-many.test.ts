import { describe, expect, it } from "vitest";
import { useServers } from "../fixtures.js";
import { run } from "../helpers.js";

// check walks two endpoints at once, eight requests each in flight or waiting: the built binary, so
// that what Node itself prints on stderr is seen.

const servers = useServers();

describe("check of many tokens", () => {
  it("prints no Node warning: every waiting request listens to the run's signal", async () => {
    const sandbox = await servers.sandbox({ apiKey: "sk_check_many", latencyMs: 100 });
    const tickers = Array.from({ length: 150 }, (_, i) => `T${i}`).join(",");
    const r = await run(
      ["--base-url", sandbox.url, "check", "-c", "base", "--tickers", tickers, "--json"],
      servers.folder(),
      { env: { TOKENINTEL_API_KEY: "sk_check_many" } },
    );
    // No token matches: exit 1, each named; and nothing from Node.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/Warning|memory leak/);
    expect(sandbox.stats.requests).toBeGreaterThanOrEqual(10);
  });
});
