import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run, tempDir } from "../helpers.js";

// `--version` is for scripts (the version alone); `version --verbose` is for bug reports.

const { version } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
const dir = tempDir();
const cache = tempDir("tokenintel-cache-");
afterAll(() => {
  dir.remove();
  cache.remove();
});
const env = { XDG_CACHE_HOME: cache.path };

describe("version", () => {
  for (const args of [["--version"], ["-V"], ["version"]]) {
    it(`${args.join(" ")} prints the version alone`, async () => {
      const r = await run(args, dir.path, { env });
      expect(r).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
    });
  }

  const report = [
    `version: ${version}`,
    `node: ${process.version}`,
    `platform: ${process.platform}`,
    `arch: ${process.arch}`,
    `config: ${join(dir.path, "config.json")}`,
    `cache: ${join(cache.path, "tokenintel")}`,
    `data: ${join(dir.path, "data")}`,
    "",
  ].join("\n");

  for (const args of [
    ["version", "--verbose"],
    ["--version", "--verbose"],
    ["--verbose", "--version"],
    ["-V", "-v"],
  ]) {
    it(`${args.join(" ")} prints what a bug report needs, one key: value a line`, async () => {
      const r = await run(args, dir.path, { env });
      expect(r).toMatchObject({ code: 0, stdout: report, stderr: "" });
    });
  }
});
