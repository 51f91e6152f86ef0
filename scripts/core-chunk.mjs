// One chunk for the code every run needs.
//
// With code splitting, esbuild puts code into a chunk per set of entry points that use it, and each
// dynamic import() is an entry point. tokenintel loads its commands, flag parser, context and data
// engine lazily, so a data command loaded ~50 files of a few KB each; Node spends ~0.35 ms on each
// ES module it resolves, links and evaluates, about 15 ms a run. Here the build gives those modules,
// the core, one set: an import() of a core module becomes an import() of the core's namespace (so no
// core module is an entry point of its own), and cli.ts and every module outside the core that an
// import() loads refer to that namespace; esbuild then writes the core as one chunk. Cycles cannot
// form: the core imports no entry point statically. What is heavy and needed by few runs keeps its
// own chunks, as before: the HTTP
// client (undici), payments (viem, x402), the sandbox, tables (cli-table3), the config file (conf),
// watch, markdown, and what the commands other than the data commands run. The lazy loading in the
// source stays as it is; only the files change.

import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { build } from "esbuild";

/** Modules some import() loads that stay out of the core chunk, and everything only they reach. */
const HEAVY = [
  /^src\/api\/client\.ts$/,
  /^src\/payment\/(session|sign|refusal|dry-run|ledger|ledger-lines|recorder|daily-cap)\.ts$/,
  /^src\/sandbox\//,
  /^src\/output\/(table|markdown|wrap)\.ts$/,
  /^src\/config\/store\.ts$/,
  /^src\/commands\/data\/watch(-[a-z]+)?\.ts$/,
  // What the commands other than the four data commands run: each loads with its command only.
  /^src\/commands\/(api|ask|auth|cache|check|complete|completion|config|sandbox|version)\/run\.ts$/,
  /^src\/commands\/directory\/sync\.ts$/,
  // Commands that bring a library few runs need: the MCP SDK (and its ajv), asciichart, the ledger.
  // (their folders too: mcp's http server and its tokens).
  /^src\/commands\/(mcp|history|payments)\/(?!index\.ts$).+\.ts$/,
  /(^|\/)node_modules\//,
];

const CORE = "tokenintel:core";

/**
 * The plugin, for a build with these options: a first pass (nothing written) finds the modules every
 * run may need, the core; the plugin then adds the namespace of the core to each entry point.
 */
export async function coreChunk(options) {
  const { metafile } = await build({ ...options, write: false, metafile: true, logLevel: "silent" });
  const inputs = metafile.inputs;
  const entries = new Set(Object.values(options.entryPoints));
  const dynamic = new Set();
  for (const input of Object.values(inputs))
    for (const i of input.imports) if (i.kind === "dynamic-import" && !i.external) dynamic.add(i.path);

  // The core: what the program reaches from cli.ts without entering a heavy module's import().
  const core = new Set();
  const queue = ["src/entry/cli.ts"];
  while (queue.length) {
    const path = queue.pop();
    if (core.has(path) || !inputs[path]) continue;
    core.add(path);
    for (const i of inputs[path].imports) {
      if (i.external || (i.kind === "dynamic-import" && HEAVY.some((re) => re.test(i.path)))) continue;
      queue.push(i.path);
    }
  }
  // Not the entry points themselves: cli.ts runs the program when it loads (top-level await).
  const coreSources = [...core].filter((p) => p.startsWith("src/") && !entries.has(p));
  const index = new Map(coreSources.map((p, n) => [resolve(p), n]));
  // The modules that load the core: cli.ts and every module outside it that some import() loads
  // (not the completion entry: it must stay small, it runs on every Tab).
  const loaders = new Set(
    [...dynamic, "src/entry/cli.ts"].filter(
      (p) => p === "src/entry/cli.ts" || (p.startsWith("src/") && !core.has(p)),
    ),
  );

  return {
    name: "core-chunk",
    setup(b) {
      b.onResolve({ filter: /^tokenintel:core$/ }, () => ({ path: CORE, namespace: "core-chunk" }));
      b.onLoad({ filter: /.*/, namespace: "core-chunk" }, () => ({
        contents: coreSources
          .map((p, n) => `export * as m${n} from ${JSON.stringify(resolve(p))};`)
          .join("\n"),
        loader: "ts",
        resolveDir: resolve("."),
      }));
      b.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
        const relative = args.path.slice(resolve(".").length + 1);
        let source = await readFile(args.path, "utf8");
        // import("./x.js") of a core module: the core's namespace instead, so that no core module
        // is an entry point of its own.
        source = source.replace(/\bimport\(\s*"(\.{1,2}\/[^"]+)\.js"\s*\)/g, (call, path) => {
          const n = index.get(resolve(dirname(args.path), `${path}.ts`));
          return n === undefined ? call : `import("${CORE}").then((core) => core.m${n})`;
        });
        if (loaders.has(relative))
          source += `\nimport * as __tiCore from "${CORE}";\nexport { __tiCore as __tiCoreChunk };\n`;
        return { contents: source, loader: "ts" };
      });
    },
  };
}
