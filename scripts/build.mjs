// Bundles src/cli.ts into dist/ with code splitting, so each command, the sandbox and the heavy
// dependencies load only when a run needs them.
import { readFile, rm } from "node:fs/promises";
import { build } from "esbuild";

const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
await rm(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: "src/cli.ts" },
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
  define: { __TOKENINTEL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
});
