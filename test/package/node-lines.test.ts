import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

// The Node lines CI tests, the lines package.json's engines accepts and the lines README names are
// one list: a line added to CI but not to engines (or the reverse) fails here.

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const engines: string = JSON.parse(read("package.json")).engines.node;

/** Whether engines accepts some release of a major line (semver's own reading of the range). */
const accepts = (range: string, major: number) => semver.intersects(range, `${major}.x`);

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

  it("engines accepts the Node running the tests, to the minor and patch", () => {
    expect(semver.validRange(engines), engines).not.toBeNull();
    expect(semver.satisfies(process.versions.node, engines), process.versions.node).toBe(true);
    // The lower bounds are real: a release below the first accepted one of a line is refused.
    for (const major of tested) {
      const first = semver.minVersion(
        semver.validRange(`${engines.split("||").find((p) => accepts(p, major))}`)!,
      )!;
      if (first.minor > 0 || first.patch > 0)
        expect(semver.satisfies(`${major}.${Math.max(0, first.minor - 1)}.0`, engines), `Node ${major}`).toBe(
          false,
        );
    }
  });

  it("README names every tested line, and says 20 is end-of-life", () => {
    const readme = read("README.md");
    const section = readme.slice(readme.indexOf("## Supported Node versions"));
    for (const major of tested) expect(section).toMatch(new RegExp(`^\\| ${major}\\b`, "m"));
    expect(section).toMatch(/^\| 20 .*end-of-life/m);
    expect(readme).toMatch(/^## Install$/m);
  });
});
