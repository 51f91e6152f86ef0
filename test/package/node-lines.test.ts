import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The Node lines CI tests, the lines package.json's engines accepts and the lines README names are
// one list: a line added to CI but not to engines (or the reverse) fails here.

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const engines: string = JSON.parse(read("package.json")).engines.node;

/** Whether a major line is accepted by a range of the forms engines uses (^X.Y.Z, >=X.Y.Z, ||). */
function accepts(range: string, major: number): boolean {
  return range.split("||").some((part) => {
    const m = /^\s*(\^|>=)(\d+)\.\d+\.\d+\s*$/.exec(part);
    if (!m) throw new Error(`engines: cannot read "${part}"`);
    return m[1] === "^" ? Number(m[2]) === major : major >= Number(m[2]);
  });
}

describe("supported Node lines", () => {
  const ciLines = /node scripts\/test-lts\.mjs ([\d ]+)/
    .exec(read(".ci/run"))![1]!
    .trim()
    .split(" ")
    .map(Number);
  const tested = [20, ...ciLines];

  it("CI tests 20 (the machine's own), 22, 24 and 26", () => {
    expect(tested).toEqual([20, 22, 24, 26]);
    expect(read("scripts/node-lines.mjs")).toContain('const DEFAULT_LINES = ["22", "24", "26"];');
  });

  it("engines accepts every tested line and no odd line between them", () => {
    for (const major of tested) expect(accepts(engines, major), `Node ${major}`).toBe(true);
    for (const major of [21, 23, 25]) expect(accepts(engines, major), `Node ${major}`).toBe(false);
  });

  it("README names every tested line, and says 20 is end-of-life", () => {
    const readme = read("README.md");
    const section = readme.slice(readme.indexOf("## Supported Node versions"));
    for (const major of tested) expect(section).toMatch(new RegExp(`^\\| ${major}\\b`, "m"));
    expect(section).toMatch(/^\| 20 .*end-of-life/m);
    expect(readme).toMatch(/^## Install$/m);
  });
});
