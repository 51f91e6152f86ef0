import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The published package has no dependencies: everything dist/ runs is inside dist/. So no file there
// may import or require a bare package name; only node: builtins and files of its own.

const root = fileURLToPath(new URL("../../", import.meta.url));
const dist = join(root, "dist");

/** The module specifiers a built file loads: static and dynamic imports, re-exports, require calls. */
function specifiersOf(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    // import x from "m"; import {a} from "m"; export {a} from "m"; export * from "m"
    /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{},\s]+?)\s*from\s*(["'])([^"'\n]+)\1/g,
    // import "m";
    /(?:^|[;\n}])\s*import\s*(["'])([^"'\n]+)\1/g,
    // import("m"), require("m"), __require("m"), but not inside a string such as ajv's generated
    // code ('require("ajv/dist/runtime/equal")', which it emits only for standalone validators)
    /(?<![\w$.'"`])(?:import|require|__require)\(\s*(["'])([^"'\n]+)\1\s*\)/g,
  ];
  // Lines of doc comments (undici's `@param {import('net').Socket}`) load nothing.
  const live = code
    .split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .join("\n");
  for (const pattern of patterns) for (const m of live.matchAll(pattern)) found.push(m[2]!);
  return found;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.c?js$/.test(f))
    .map((f) => join(dir, f));
}

describe("what dist/ loads", () => {
  it("finds imports, re-exports and require calls, and not code inside strings", () => {
    const code = [
      'import { a as b } from "./chunks/chunk-A.js";',
      'import*as c from"node:fs";',
      'export { d } from "./chunks/chunk-B.js";',
      'import "node:process";',
      'const e = await import("./chunks/market-C.js");',
      'var f = __require("node:zlib"); var g = require("bufferutil");',
      "equal.code = 'require(\"ajv/dist/runtime/equal\").default';",
      'x.formats = (0, codegen_1._)`require("ajv-formats/dist/formats").${name}`;',
      '{ name: "from", type: "address" }',
      "       * @param {import('net').Socket} socket",
    ].join("\n");
    expect(specifiersOf(code).sort()).toEqual(
      [
        "./chunks/chunk-A.js",
        "node:fs",
        "./chunks/chunk-B.js",
        "node:process",
        "./chunks/market-C.js",
        "node:zlib",
        "bufferutil",
      ].sort(),
    );
  });

  it("is built", () => {
    expect(existsSync(join(dist, "cli.js")), "run `npm run build` first").toBe(true);
  });

  it("imports no package by name: only node: builtins and its own files, which all exist", () => {
    const files = [...jsFiles(dist), join(root, "bin", "tokenintel.js")];
    expect(files.length).toBeGreaterThan(10);
    const bare: string[] = [];
    const missing: string[] = [];
    let relative = 0;
    for (const file of files) {
      for (const spec of specifiersOf(readFileSync(file, "utf8"))) {
        if (spec.startsWith("node:")) continue;
        if (spec.startsWith("./") || spec.startsWith("../")) {
          relative++;
          if (!existsSync(resolve(dirname(file), spec))) missing.push(`${file}: ${spec}`);
          continue;
        }
        bare.push(`${file.slice(root.length)}: ${spec}`);
      }
    }
    expect(bare).toEqual([]);
    expect(missing).toEqual([]);
    expect(relative).toBeGreaterThan(10);
  });

  it("bundles the undici its sources import (the Agent), not undici's whole public entry", () => {
    // scripts/undici-public.mjs: the entry alone would bring fetch, WebSocket, caches and mocks.
    const bundled = jsFiles(dist)
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    expect(bundled).toContain("// node_modules/undici/lib/dispatcher/agent.js");
    for (const part of [
      "index.js",
      "lib/web/fetch/index.js",
      "lib/web/websocket/",
      "lib/mock/",
      "lib/cache/",
    ])
      expect(bundled.includes(`// node_modules/undici/${part}`), part).toBe(false);
  });

  it("every run loads none of the heavy libraries: they wait for the runs that need them", () => {
    // What cli.js loads before any command runs: its static imports and the core chunk's, and theirs.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const code = readFileSync(file, "utf8");
      const statics = [
        ...code.matchAll(
          /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{},\s]+?)\s*from\s*"(\.[^"]+)"|(?:^|[;\n}])\s*import\s*"(\.[^"]+)"/g,
        ),
      ];
      for (const m of statics) visit(resolve(dirname(file), (m[1] ?? m[2])!));
      // The core chunk, which the run loads through import() at once (from cli.js or a chunk).
      for (const m of code.matchAll(/import\("(\.\/(?:chunks\/)?tokenintel_core-[^"]+)"\)/g))
        visit(resolve(dirname(file), m[1]!));
    };
    visit(join(dist, "cli.js"));
    expect([...loaded].some((f) => /tokenintel_core-/.test(f))).toBe(true);
    const sources = [...loaded].map((f) => readFileSync(f, "utf8")).join("\n");
    for (const heavy of [
      "@modelcontextprotocol",
      "node_modules/ajv/",
      "asciichart",
      "node_modules/undici/",
      "node_modules/viem/",
      "cli-table3",
      "node_modules/conf/",
    ])
      expect(sources.includes(`// node_modules/${heavy.replace(/^node_modules\//, "")}`), heavy).toBe(false);
  });
});
