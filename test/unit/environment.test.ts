import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENVIRONMENT } from "../../scripts/man-page.js";

// Every TOKENINTEL_ variable the program reads is documented (the man page's ENVIRONMENT, from
// which docs/reference/configuration.md is made), but those that are not for users, each with why.

const NOT_FOR_USERS: Record<string, string> = {
  TOKENINTEL_MCP_EARLY: "tests turn the MCP server's early answers off to compare them with the SDK's",
  TOKENINTEL_V8_FLAGS: "npm run bench -- --trials runs without the shim's V8 flags",
  TOKENINTEL_VERSION__: "the build writes the version into the bundle",
};

describe("the environment a run reads", () => {
  it("is documented, every variable of it", () => {
    const sources = readdirSync("src", { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".ts"),
    );
    const read = new Set(
      sources.flatMap(
        (file) => readFileSync(join("src", file), "utf8").match(/TOKENINTEL_[A-Z0-9_]+/g) ?? [],
      ),
    );
    const documented = new Set(ENVIRONMENT.flatMap(([names]) => names.split(/,\s*/)));
    const missing = [...read].filter((name) => !documented.has(name) && !(name in NOT_FOR_USERS));
    expect(missing).toEqual([]);
    expect(read.size).toBeGreaterThan(10);
  });
});
