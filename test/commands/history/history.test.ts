import { describe, expect, it } from "vitest";
import { isoDay } from "../../../src/commands/history/dates.js";
import { ENDPOINTS } from "../../../src/contract/endpoints.js";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// history in-process through run() against the sandbox.

const sandbox = useSandbox();
const dir = useServers().folder();
const at = (args: string[]) =>
  run(["--base-url", sandbox.url, "--api-key", sandbox.apiKey, "history", ...args], dir);

const DAY_MS = 86_400_000;
const requests = () => sandbox.stats.byPath[ENDPOINTS.history.path] ?? 0;

describe("--since", () => {
  it("after today is refused before any request (exit 2), naming the value and today's date", async () => {
    const days = [isoDay(Date.now())];
    const since = isoDay(Date.now() + 2 * DAY_MS);
    const before = requests();
    const r = await at(["-c", "base", "--tickers", "BAKO", "--since", since, "--json"]);
    days.push(isoDay(Date.now()));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`--since: "${since}" is after today (`);
    // Today as the run saw it (the test's clock may have passed midnight since).
    expect(
      days.some((today) => r.stderr.includes(`today (${today}, UTC)`)),
      r.stderr,
    ).toBe(true);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(requests()).toBe(before);
  });

  it("yesterday, or a span back from today, is read as ever", async () => {
    for (const since of [isoDay(Date.now() - DAY_MS), "3d"]) {
      const r = await at(["-c", "base", "--tickers", "BAKO", "--since", since, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const [series] = JSON.parse(r.stdout) as Array<{ days: unknown[] }>;
      expect(series!.days.length).toBeGreaterThan(0);
    }
  });
});
