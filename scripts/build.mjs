// Bundles src/cli.ts into dist/ with code splitting, so each command, the sandbox and the heavy
// dependencies load only when a run needs them.
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { build } from "esbuild";

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

// commander requires node:child_process at load time (~5 ms) for git-style executable subcommands,
// which tokenintel does not use. Hand it a proxy that loads the module on first use instead.
const lazyChildProcess = {
  name: "lazy-commander-child-process",
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => {
      if (!args.importer.includes(`${sep}commander${sep}`)) return undefined;
      return { path: "child_process", namespace: "lazy-builtin" };
    });
    b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, () => ({
      contents:
        'let real;\nmodule.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });\n',
      loader: "js",
    }));
  },
};

const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
await rm(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  // complete: what shell completion runs on Tab (`tokenintel __complete`), loaded alone by the shim.
  entryPoints: { cli: "src/cli.ts", complete: "src/commands/complete/main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.18",
  sourcemap: false,
  minifySyntax: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  // CommonJS dependencies (cli-table3) call require() on builtins; give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __tiCreateRequire } from "node:module"; const require = __tiCreateRequire(import.meta.url);',
  },
  plugins: [lazyHttp2, lazyChildProcess],
  define: { __TOKENINTEL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
});
// `tokenintel --version` is answered from this file alone, without loading the program.
await writeFile(
  new URL("../dist/version.js", import.meta.url),
  `export const version = ${JSON.stringify(pkg.version)};\n`,
);
