import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// An answer with no records says why when it can, and CSV still has its header.

const dir = { path: useServers().folder() };
const sandbox = useSandbox();

const cli = (args: string[]) =>
  run(["--base-url", sandbox.url, "--api-key", sandbox.apiKey, ...args], dir.path, {
    env: { COLUMNS: "120" },
  });

describe("a page past the last one", () => {
  it("prints what the format prints for nothing, and says on stderr which page is the last", async () => {
    const last = Math.ceil(sandbox.data.list("base", undefined).length / 30);
    const note = `tokenintel: warning: page 999 is past the last page: the listing has ${last} pages`;
    const json = await cli(["market", "-c", "base", "--page", "999", "--json"]);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe("[]\n");
    expect(json.stderr.trim()).toBe(note);
    const table = await cli(["market", "-c", "base", "--page", "999", "-o", "table"]);
    expect(table.stderr).toContain(note);
    expect(table.stderr).toContain("No tokens matched.");
    // A page that exists says nothing more.
    const fine = await cli(["market", "-c", "base", "--page", String(last), "--json"]);
    expect(fine.stderr).toBe("");
  });

  it("CSV with no records still prints its header: the fields the records would have had", async () => {
    const r = await cli(["market", "-c", "base", "--page", "999", "-o", "csv"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^id,token_info\.id,token_info\.symbol,token_info\.name,/);
    expect(lines[0]).toContain("token_metrics.usd_price");
    const chosen = await cli([
      "directory",
      "-c",
      "base",
      "--page",
      "999",
      "-o",
      "csv",
      "--fields",
      "symbol,address",
    ]);
    expect(chosen.stdout).toBe("symbol,address\n");
  });
});

describe("hints that fit", () => {
  it("the page ceiling suggests the server's page count when it said one", async () => {
    const last = Math.ceil(sandbox.data.list("base", undefined).length / 30);
    const r = await cli(["market", "-c", "base", "--max-pages", "3", "--json"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(
      new RegExp(`stopped at page 3 of ${last}, the page ceiling; .*e\\.g\\. --max-pages ${last}\\)$`),
    );
    expect(JSON.parse(r.stdout)).toHaveLength(90);
  });
});
