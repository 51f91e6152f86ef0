import { describe, expect, it } from "vitest";
import type { SandboxOptions, SandboxServer } from "../../../src/sandbox/server.js";
import { useKeyedSandbox } from "../../commands/sandbox-runs.js";

// A listing's pagination in either key set the service sends ({pageCount, total} or {totalPages,
// totalRecords}, numbers or strings), in-process through run(): exactly the pages the count names.

const { KEY, servers, cliAt: at } = useKeyedSandbox("pagination");
const start = (options: SandboxOptions = {}): Promise<SandboxServer> =>
  servers.sandbox({ apiKey: KEY, ...options });
const requests = (s: SandboxServer, path: string) => s.stats.byPath[path] ?? 0;

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
