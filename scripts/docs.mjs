// npm run docs: bundles scripts/reference.ts on its own (dependencies left to node_modules, as the
// build does with the man page's script) and runs it: the reference pages, the agent skill, the
// README's generated parts and the outputs of every console block, written from the program.
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const entry = new URL("../.cache/reference.mjs", import.meta.url);
await mkdir(new URL("../.cache/", import.meta.url), { recursive: true });
await build({
  entryPoints: [fileURLToPath(new URL("reference.ts", import.meta.url))],
  outfile: fileURLToPath(entry),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20.18",
  packages: "external",
  logLevel: "warning",
});
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
