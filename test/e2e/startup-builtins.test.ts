import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "./fixtures.js";
import { run } from "./helpers.js";

// Builtins that undici and commander require at load time, which a run never uses: the build hands
// them stand-ins that load the real module on first use (scripts/build.mjs). node:http2 and node:tls
// cost ~20 ms, node:child_process ~5, node:assert ~3 (the lazy-undici-* and lazy-commander-*
// plugins). A request that works is the proof that the stand-ins stand.

const sandbox = useSandbox();
const servers = useServers();

describe("one request", () => {
  it("loads neither node:http2, node:tls, node:child_process nor node:assert", async () => {
    const folder = servers.folder();
    const preload = join(folder, "modules.cjs");
    const list = join(folder, "modules.txt");
    writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));\n`,
    );
    const r = await run(
      [
        "--base-url",
        sandbox.url,
        "--api-key",
        sandbox.apiKey,
        "market",
        "-c",
        "base",
        "--tickers",
        "VIRTUAL",
        "--json",
      ],
      folder,
      {
        env: { NODE_OPTIONS: `--require ${preload}` },
      },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    const loaded = readFileSync(list, "utf8").split("\n");
    expect(loaded).toContain("NativeModule net"); // the list is the real one
    for (const name of ["http2", "tls", "child_process", "assert"])
      expect(loaded).not.toContain(`NativeModule ${name}`);
  });
});
