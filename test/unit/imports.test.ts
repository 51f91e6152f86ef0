import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Issue 24 item 3: no command reaches back into the file that lists the commands (src/program.ts)
// or the CLI that runs them, and no import cycle runs at load time.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

interface Edge {
  to: string;
  /** Loaded when the importing module loads (a static import of values), not on demand or for types. */
  eager: boolean;
}

function importsOf(file: string): Edge[] {
  const text = readFileSync(file, "utf8");
  const edges: Edge[] = [];
  const target = (spec: string) => resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)";/gms))
    edges.push({ to: target(m[3]!), eager: !m[2] });
  for (const m of text.matchAll(/import\("(\.[^"]+)"\)/g)) edges.push({ to: target(m[1]!), eager: false });
  return edges;
}

const files = sources(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const name = (f: string) => relative(SRC, f);

describe("imports", () => {
  it("resolve to files that exist", () => {
    const missing = [...graph].flatMap(([f, edges]) =>
      edges.filter((e) => !graph.has(e.to)).map((e) => `${name(f)} -> ${name(e.to)}`),
    );
    expect(missing).toEqual([]);
  });

  it("no command imports the program that lists the commands, or the CLI", () => {
    const back = [...graph]
      .filter(([f]) => name(f).startsWith("commands/"))
      .flatMap(([f, edges]) =>
        edges.filter((e) => ["program.ts", "entry/cli.ts"].includes(name(e.to))).map(() => name(f)),
      );
    expect(back).toEqual([]);
  });

  it("no cycle among the imports made at load time", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === "done") return;
      if (state.get(f) === "open") {
        cycles.push([...path.slice(path.indexOf(f)), f].map(name).join(" -> "));
        return;
      }
      state.set(f, "open");
      for (const e of graph.get(f) ?? []) if (e.eager) visit(e.to, [...path, f]);
      state.set(f, "done");
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });
});
