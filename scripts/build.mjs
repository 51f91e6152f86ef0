// Bundles src/entry/cli.ts into dist/ with code splitting, so each command, the sandbox and the heavy
// dependencies load only when a run needs them.
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { coreChunk } from "./core-chunk.mjs";
import { bundledPackageDirs, describePackages, problemsOf, renderNotices } from "./notices.mjs";
import { importScript } from "./ts-script.mjs";
import { undiciPublic } from "./undici-public.mjs";

// undici's HTTP/1 client requires its HTTP/2 client at load time, and that loads node:http2 and
// node:tls (~20 ms at every start). tokenintel never negotiates HTTP/2 (allowH2 is off), so the
// require becomes lazy: the module is still bundled, and runs only if it is ever called.
const lazyHttp2 = {
  name: "lazy-undici-http2",
  setup(b) {
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => {
      if (
        !args.importer.includes(`${sep}undici${sep}lib${sep}dispatcher${sep}client.js`) ||
        args.pluginData?.real
      )
        return undefined;
      return { path: join(dirname(args.importer), "client-h2.js"), namespace: "lazy-h2" };
    });
    b.onLoad({ filter: /.*/, namespace: "lazy-h2" }, (args) => ({
      contents: `let real;\nmodule.exports = function connectH2(...args) {\n  real ??= require(${JSON.stringify(args.path)});\n  return real.apply(this, args);\n};\n`,
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

// ws (under viem's WebSocket transport, which tokenintel does not use) tries require("bufferutil")
// and require("utf-8-validate") inside try/catch for optional native speed-ups. Left as they are,
// dist/ would look up bare packages at run time and pick up whatever a parent folder of the
// install happens to hold. Bundle an empty answer instead: ws takes its JavaScript path, always.
const noOptionalNatives = {
  name: "no-optional-natives",
  setup(b) {
    b.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({
      path: args.path,
      namespace: "absent-optional",
    }));
    b.onLoad({ filter: /.*/, namespace: "absent-optional" }, (args) => ({
      contents: `const e = new Error("Cannot find module '${args.path}' (not bundled)");\ne.code = "MODULE_NOT_FOUND";\nthrow e;\n`,
      loader: "js",
    }));
  },
};

// cli-table3 (the tables whose cells wrap, src/output/wrap.ts) measures every line it draws with
// string-width. It measures with src/output/width.ts instead: the widths tokenintel fitted the
// columns with, so that a column's width means the same cells to both (string-width counts a zero
// width space as one cell, width.ts as none: a cell holding one would be padded short). Kept for
// that, not for speed: `npm run bench -- --trials` measured no difference on a wrapped table.
const root = fileURLToPath(new URL("..", import.meta.url));
const ownStringWidth = {
  name: "own-string-width",
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) => {
      if (!args.importer.includes(`${sep}cli-table3${sep}`)) return undefined;
      return { path: "string-width", namespace: "own-width" };
    });
    b.onLoad({ filter: /.*/, namespace: "own-width" }, () => ({
      contents: `module.exports = require(${JSON.stringify(join(root, "src", "output", "width.ts"))}).displayWidth;\n`,
      resolveDir: root,
      loader: "js",
    }));
  },
};

// Builtins that CommonJS dependencies require without the node: prefix ("zlib", "stream") are
// written with it, so that every bare specifier left in dist/ is a node: one (a test checks).
const builtins = new Set(builtinModules.filter((m) => !m.startsWith("_")));
const nodePrefix = {
  name: "node-prefix",
  setup(b) {
    b.onResolve({ filter: /^[a-z_/]+$/ }, (args) =>
      builtins.has(args.path) ? { path: `node:${args.path}`, external: true } : undefined,
    );
  },
};

const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
// A trial build (scripts/trials.mjs, `npm run bench -- --trials`): another folder, and the plugins
// named left out, to measure what each is worth.
const distDir = process.env.TOKENINTEL_BUILD_DIST ?? fileURLToPath(new URL("../dist", import.meta.url));
const without = new Set((process.env.TOKENINTEL_BUILD_WITHOUT ?? "").split(",").filter(Boolean));
const kept = (plugins) => plugins.filter((p) => !without.has(p.name));
await rm(distDir, { recursive: true, force: true });
const options = {
  // complete: what shell completion runs on Tab (`tokenintel __complete`), loaded alone by the shim.
  entryPoints: { cli: "src/entry/cli.ts", complete: "src/entry/complete.ts" },
  outdir: distDir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.18",
  sourcemap: false,
  minifySyntax: true,
  // Licence comments inside the code (some name code a package copied from elsewhere, such as
  // undici's formdata-polyfill) go to .LEGAL.txt files, which are folded into THIRD_PARTY_NOTICES.
  legalComments: "external",
  metafile: true,
  chunkNames: "chunks/[name]-[hash]",
  // CommonJS dependencies (cli-table3) call require() on builtins; give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __tiCreateRequire } from "node:module"; const require = __tiCreateRequire(import.meta.url);',
  },
  plugins: kept([undiciPublic(), lazyHttp2, noOptionalNatives, ownStringWidth, nodePrefix]),
  define: { __TOKENINTEL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
};
const result = await build({ ...options, plugins: kept([...options.plugins, await coreChunk(options)]) });
// dist/shim.cjs: the shim (src/entry/shim.ts; bin/tokenintel.js hands it the command line), which
// answers `tokenintel --version` and `--help` without loading the program: a help page is one of
// dist/help.json (written below, from the program), wrapped at the terminal's width. CommonJS, like
// the bin file. dist/compile-cache.cjs: what it loads before a bundle (the compile cache's folder).
await build({
  entryPoints: {
    shim: "src/entry/shim.ts",
    "compile-cache": "src/entry/compile-cache.ts",
  },
  outdir: distDir,
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.18",
  minifySyntax: true,
  define: options.define,
  logLevel: "warning",
});

// THIRD_PARTY_NOTICES: every package with code in dist/, its licence and the licence text, and the
// licence comments esbuild collected; the build fails rather than ship a licence outside the list.
const packages = describePackages(bundledPackageDirs(result.metafile));
const problems = problemsOf(packages);
if (problems.length) {
  throw new Error(`the bundle cannot ship:\n  ${problems.join("\n  ")}`);
}
const dist = pathToFileURL(`${distDir}/`);
const legalFiles = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith(".LEGAL.txt")).sort();
const comments = new Set();
for (const file of legalFiles) {
  const text = await readFile(new URL(file, dist), "utf8");
  for (const block of text.replace(/^Bundled license information:\n/, "").split(/\n\n+/)) {
    if (block.trim()) comments.add(block.trim());
  }
  await rm(new URL(file, dist));
}
await writeFile(new URL("THIRD_PARTY_NOTICES", dist), renderNotices(packages, [...comments].join("\n\n")));
// The man page and the help pages, from the program with every command defined: each script is
// bundled on its own and run once.
const { manPage } = await importScript("man-page", options.define);
await writeFile(new URL("tokenintel.1", dist), await manPage(pkg.version));
const { helpPages } = await importScript("help-pages", options.define);
await writeFile(new URL("help.json", dist), JSON.stringify(await helpPages()));

// The metafile stays out of the package; the notices test reads it to know what was bundled.
if (!process.env.TOKENINTEL_BUILD_DIST)
  await writeFile(new URL("../.cache/metafile.json", import.meta.url), JSON.stringify(result.metafile));
