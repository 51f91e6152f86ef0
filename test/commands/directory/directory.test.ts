import { describe, expect, it } from "vitest";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel directory` run in-process through run() against the sandbox: the walk of an answer
// without pagination, and the two shapes of its answer.

const { KEY, servers, sandbox, cli, cliAt, requestsTo } = useKeyedSandbox("directory", { taStyle: "flat" });

describe("directory", () => {
  it("directory walks pages until a short or empty page when the answer has no pagination", async () => {
    const before = requestsTo("/v1/crypto-metainfo");
    const r = await cli(["directory", "-c", "base", "--json"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ id: string }>;
    expect(records).toHaveLength(1000);
    expect(records[999]).toEqual(sandbox.data.directoryRecord(sandbox.data.list("base", undefined)[999]!));
    // 10 full pages, an empty one that says the list is done, and at most the 3 requested ahead of
    // it (4 in flight at the default concurrency; they may be dropped before they arrive).
    const made = requestsTo("/v1/crypto-metainfo") - before;
    expect(made).toBeGreaterThanOrEqual(11);
    expect(made).toBeLessThanOrEqual(14);
    // On a sandbox of its own: a request the first walk dropped may still reach this one's count.
    const own = await servers.sandbox({ apiKey: KEY, taStyle: "flat" });
    const r2 = await cliAt(own, ["directory", "-c", "base", "--limit", "250", "--json"]);
    expect(JSON.parse(r2.stdout)).toHaveLength(250);
    expect(own.stats.byPath["/v1/crypto-metainfo"]).toBe(3);
  });

  it("directory accepts a bare JSON array and a paginated envelope", async () => {
    for (const style of ["bare", "paginated"] as const) {
      const s = await servers.sandbox({ apiKey: KEY, directoryStyle: style });
      const r = await cliAt(s, ["directory", "-c", "solana", "-e", "virtuals", "--json"]);
      expect(r.code).toBe(0);
      const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id);
      expect(ids).toEqual(s.data.list("solana", "virtuals").map((t) => t.id));
    }
  });
});
