import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { showsOutput } from "./docs/command-page.js";
import { runConsoleLine, shownOutput } from "./docs/console.js";
import { applyRegions, generatePages, REFERENCE_DIR, readmeRegions } from "./docs/generate.js";
import { refreshConsoleBlocks } from "./docs/markdown.js";
import { allExamples, loadModel } from "./docs/model.js";

// `npm run docs`: writes the docs the program's tables make (docs/reference/, the agent skill, the
// README's generated parts), then runs every console block of README.md and docs/ and writes what
// each printed. A page no command has any more is removed. Run it after changing a command, a flag,
// a setting, the registry or an example; test/unit/docs-pages.test.ts fails until it is run.

/** The repository's root: this file is scripts/reference.ts, or its bundle in .cache/. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The hand-written pages whose console blocks are run again: the README and docs/ outside reference/. */
export function handWrittenPages(root: string): string[] {
  const docs = readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md") && !f.startsWith("reference"))
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs.sort()];
}

/** A line's output, run once however many pages show it; a line that fails stops the generator. */
function outputs(): (line: string) => Promise<string> {
  const done = new Map<string, Promise<string>>();
  return (line) => {
    let output = done.get(line);
    if (!output) {
      output = runConsoleLine(line).then((r) => {
        if (r.code !== 0) throw new Error(`exit ${r.code}: ${line}`);
        return r.output;
      });
      done.set(line, output);
    }
    return output;
  };
}

function write(path: string, text: string, changed: string[]): void {
  const file = join(ROOT, path);
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  changed.push(path);
}

export async function main(): Promise<number> {
  const started = Date.now();
  const model = await loadModel();
  const outputOf = outputs();
  const shown = new Map<string, string>();
  for (const line of new Set(allExamples(model).filter(showsOutput))) {
    const output = await outputOf(line);
    if (output) shown.set(line, shownOutput(output));
  }
  const changed: string[] = [];
  const pages = generatePages(model, (line) => shown.get(line));
  for (const [path, text] of pages) write(path, text, changed);
  const stale = readdirSync(join(ROOT, REFERENCE_DIR))
    .map((f) => `${REFERENCE_DIR}/${f}`)
    .filter((p) => !pages.has(p));
  for (const path of stale) rmSync(join(ROOT, path));
  for (const path of handWrittenPages(ROOT)) {
    let text = readFileSync(join(ROOT, path), "utf8");
    if (path === "README.md") text = applyRegions(text, readmeRegions(model));
    write(path, await refreshConsoleBlocks(text, outputOf), changed);
  }
  const took = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    [
      ...changed.map((p) => `wrote ${p}`),
      ...stale.map((p) => `removed ${p}`),
      `docs: ${pages.size} generated pages, ${changed.length} written, ${stale.length} removed (${took} s, from ${relative(process.cwd(), ROOT) || "."})`,
    ].join("\n"),
  );
  return 0;
}
