// A TypeScript script of this folder, bundled on its own (dependencies left to node_modules, which
// a checkout always has) into .cache/ and imported: the build's man page and help pages, and
// `npm run docs`.
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Bundles scripts/<name>.ts (with esbuild's `define`, if any) and imports it. */
export async function importScript(name, define) {
  const entry = new URL(`../.cache/${name}.mjs`, import.meta.url);
  await mkdir(new URL("../.cache/", import.meta.url), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL(`${name}.ts`, import.meta.url))],
    outfile: fileURLToPath(entry),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.18",
    packages: "external",
    ...(define ? { define } : {}),
    logLevel: "warning",
  });
  return import(entry.href);
}
