import { afterAll, describe, expect, it } from "vitest";
import { settingNames } from "../../../src/flags/settings-table.js";
import { tempDir } from "../../e2e/helpers.js";
import { run } from "../harness.js";

// `config --help` lists every setting, pay-network included, its description in line: the list is
// the settings table's, each name padded to the longest. The timeout setting's line says a plain
// number is seconds, as --timeout's does.

const dir = tempDir();
afterAll(() => dir.remove());

describe("config --help", () => {
  it("lists every setting, descriptions aligned in one column, with its flag and variable", async () => {
    const r = await run(["config", "--help"], dir.path);
    expect(r.code).toBe(0);
    const list = r.stdout.slice(r.stdout.indexOf("\nSettings"));
    const names = settingNames();
    expect(names).toContain("pay-network");
    const starts = names.map((name) => {
      const line = list.split("\n").find((l) => l.startsWith(`  ${name} `));
      expect(line, name).toBeDefined();
      return line!.search(/(?<=^ {2}\S+ +)\S/);
    });
    expect(new Set(starts).size).toBe(1);
    expect(list).toMatch(
      /\n {2}pay-network {2}the network --pay pays on when offered several: .*\n {15}--pay-network, TOKENINTEL_PAY_NETWORK\n/,
    );
    expect(r.stdout.replace(/\s+/g, " ")).toContain(`read and change settings: ${names.join(", ")}`);
  });

  it("config --help says the same of the timeout setting", async () => {
    const r = await run(["config", "--help"], dir.path);
    expect(r.stdout).toMatch(/timeout\s+per-request timeout, e\.g\. 30s or 5 \(seconds\)/);
  });
});
