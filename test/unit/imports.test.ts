import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The import graph of src/ kept to the layers docs/development.md draws ("Architecture: where a new
// thing goes"): no import reaches up a layer, no two folders import each other (directly or round
// a loop), no cycle runs at load time, and each bundle starts from src/entry/ with what it may load
// at start written down here (issue 24 item 3, issue 36 items 1 and 3).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");

/**
 * The layers, from the outside in, by folder under src/ (a file at the top by its name). A file may
 * import its own folder, another folder of its layer, or any folder of a layer further in.
 */
const LAYERS: readonly (readonly string[])[] = [
  // What each bundle starts from: the shim, the program, completion, --help and --version.
  ["entry"],
  // The command list.
  ["program"],
  ["commands"],
  // What a run hands its command.
  ["context"],
  // The services a command uses.
  ["api", "payment", "output", "config", "settings", "cache", "token-index", "risk", "sandbox", "help"],
  // The leaves every layer may use.
  [
    "contract",
    "json",
    "numbers",
    "query",
    "files",
    "flags",
    "terminal",
    "io",
    "errors",
    "sleep",
    "text",
    "version",
    "types",
  ],
];

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

/** A file's imports of other files of src/, and the packages (and node: modules) it loads eagerly. */
function importsOf(file: string): { edges: Edge[]; packages: string[] } {
  const text = readFileSync(file, "utf8");
  const edges: Edge[] = [];
  const packages: string[] = [];
  const target = (spec: string) => resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)";/gms)) {
    if (m[3]!.startsWith(".")) edges.push({ to: target(m[3]!), eager: !m[2] });
    else if (!m[2]) packages.push(m[3]!);
  }
  // A bare import for its effects (`import "./x.js";`) loads the file as eagerly as any other.
  for (const m of text.matchAll(/^import\s+"([^"]+)";/gm)) {
    if (m[1]!.startsWith(".")) edges.push({ to: target(m[1]!), eager: true });
    else packages.push(m[1]!);
  }
  // import("./x.js"), its argument on the next line as the formatter may put it.
  for (const m of text.matchAll(/import\(\s*"(\.[^"]+)"\s*\)/g))
    edges.push({ to: target(m[1]!), eager: false });
  return { edges, packages };
}

const files = sources(SRC);
const imports = new Map(files.map((f) => [f, importsOf(f)]));
const graph = new Map(files.map((f) => [f, imports.get(f)!.edges]));
const name = (f: string) => relative(SRC, f);

/** The folder a file belongs to: its folder under src/ (a command's own folder), or its name. */
function folderOf(file: string): string {
  const parts = name(file).split("/");
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, "");
  return parts[0] === "commands" && parts.length > 2 ? `commands/${parts[1]}` : parts[0]!;
}
const layerOf = (folder: string) => LAYERS.findIndex((layer) => layer.includes(folder.split("/")[0]!));

/** Each import between two folders: "from -> to", with the files that make it. */
function folderEdges(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [f, list] of graph) {
    for (const e of list) {
      const [from, to] = [folderOf(f), folderOf(e.to)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, (edges.get(key) ?? new Set()).add(`${name(f)} -> ${name(e.to)}`));
    }
  }
  return edges;
}

/** The loops between folders: each strongly connected set of two or more folders (Tarjan). */
function folderLoops(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split(" -> ") as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      set.push(w);
    } while (w !== v);
    if (set.length > 1) loops.push(set.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return loops;
}

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

describe("the layers", () => {
  it("place every folder of src/", () => {
    const unplaced = [...new Set(files.map(folderOf))].filter((folder) => layerOf(folder) < 0);
    expect(unplaced).toEqual([]);
  });

  it("no import reaches up a layer: at load time, on demand or for a type", () => {
    const upward = [...graph].flatMap(([f, edges]) =>
      edges
        .filter((e) => layerOf(folderOf(e.to)) < layerOf(folderOf(f)))
        .map((e) => `${name(f)} -> ${name(e.to)}`),
    );
    expect(upward).toEqual([]);
  });

  it("no loop between folders (a command's folder counts as one)", () => {
    const edges = folderEdges();
    const loops = folderLoops(edges.keys()).map((loop) =>
      [...edges]
        .filter(([edge]) => loop.includes(edge.split(" -> ")[0]!) && loop.includes(edge.split(" -> ")[1]!))
        .map(([edge, by]) => `${edge} (${[...by].join(", ")})`),
    );
    expect(loops).toEqual([]);
  });

  it("the loop finder finds a loop round three folders, and none in a chain", () => {
    expect(folderLoops(["a -> b", "b -> c", "c -> a", "c -> d"])).toEqual([["a", "b", "c"]]);
    expect(folderLoops(["a -> b", "b -> c", "a -> c"])).toEqual([]);
  });

  it("each limit and fact (an exported UPPER_CASE constant) is defined once", () => {
    const defined = new Map<string, string[]>();
    for (const f of files)
      for (const m of readFileSync(f, "utf8").matchAll(/^export const ([A-Z][A-Z0-9_]*)\b/gm))
        defined.set(m[1]!, [...(defined.get(m[1]!) ?? []), name(f)]);
    expect([...defined].filter(([, where]) => where.length > 1)).toEqual([]);
  });
});

// What each bundle may load at start: the files of src/ its entry reaches through static imports,
// and the packages among them (node: modules are free, but for the shim's). Anything else is
// loaded when asked for.
const STDOUT = ["files/stdout.ts", "files/errors.ts"];
const PRIVATE_FOLDERS = [
  "config/locations.ts",
  "config/folders.ts",
  "files/private.ts",
  "files/errors.ts",
  "errors.ts",
];
const BUDGETS: Record<string, { files: string[]; packages: string[]; builtins?: string[] }> = {
  // On every run: the command line's reading; the answers to --version and --help (a write to
  // stdout, the version, the help pages' renderer).
  "entry/shim.ts": {
    files: [
      "entry/command-line.ts",
      "entry/version.ts",
      "entry/help.ts",
      ...STDOUT,
      "version.ts",
      "help/render.ts",
    ],
    packages: [],
    // Those the CommonJS loader has loaded already (node:tty, for one, costs --version ~8 M instructions).
    builtins: ["node:fs", "node:module", "node:path", "node:url"],
  },
  // Before a bundle loads: the compile cache's folder, private.
  "entry/compile-cache.ts": { files: PRIVATE_FOLDERS, packages: [] },
  // On every Tab: the token index and the contract's names, no commander, program or client.
  "entry/complete.ts": {
    files: [
      "commands/complete/run.ts",
      "token-index/store.ts",
      ...PRIVATE_FOLDERS,
      "contract/api.ts",
      "contract/endpoints.ts",
      "contract/endpoint-spec.ts",
      "api/fields.ts",
    ],
    packages: [],
  },
  // The program: commander, the command list and the global flags; each command when it runs.
  "entry/cli.ts": {
    files: [
      "entry/command-line.ts",
      "entry/run.ts",
      "program.ts",
      "commands/command.ts",
      "flags/global.ts",
      "flags/table.ts",
      "flags/settings-table.ts",
      "flags/formats.ts",
      "contract/api.ts",
      "contract/assets.ts",
      "contract/limits.ts",
      "help/notes.ts",
      "help/render.ts",
      "io.ts",
      "terminal/charset.ts",
      "terminal/sanitize.ts",
      "terminal/secrets.ts",
      "errors.ts",
      "files/errors.ts",
      "version.ts",
    ],
    packages: ["commander"],
  },
};

/** The files and packages `entry` loads at start. */
function loadedAtStart(entry: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [join(SRC, entry)];
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const e of imports.get(f)?.edges ?? []) if (e.eager) queue.push(e.to);
    for (const p of imports.get(f)?.packages ?? []) packages.add(p);
  }
  seen.delete(join(SRC, entry));
  return { files: [...seen].map(name).sort(), packages: [...packages].sort() };
}

describe("the entry points", () => {
  const build = readFileSync(join(ROOT, "scripts/build.mjs"), "utf8");
  const entries = [...build.matchAll(/entryPoints:\s*\{([^}]*)\}/g)].flatMap((m) =>
    [...m[1]!.matchAll(/"src\/([^"]+\.ts)"/g)].map((e) => e[1]!),
  );

  it("every bundle the build makes starts from src/entry/, and each has a budget here", () => {
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.filter((e) => !e.startsWith("entry/"))).toEqual([]);
    expect(entries.sort()).toEqual(Object.keys(BUDGETS).sort());
  });

  for (const [entry, budget] of Object.entries(BUDGETS)) {
    it(`${entry} loads at start only what its budget allows`, () => {
      const loaded = loadedAtStart(entry);
      expect(loaded.files.filter((f) => !budget.files.includes(f))).toEqual([]);
      const [builtins, packages] = [true, false].map((node) =>
        loaded.packages.filter((p) => p.startsWith("node:") === node),
      ) as [string[], string[]];
      expect(packages.filter((p) => !budget.packages.includes(p))).toEqual([]);
      if (budget.builtins) expect(builtins.filter((p) => !budget.builtins!.includes(p))).toEqual([]);
    });
  }

  it("bin/tokenintel.js hands the command line to dist/shim.cjs, and does nothing else", () => {
    const bin = readFileSync(join(ROOT, "bin/tokenintel.js"), "utf8");
    const code = bin.split("\n").filter((l) => l.trim() && !l.trim().startsWith("//"));
    expect(code.length).toBeLessThanOrEqual(15);
    expect([...bin.matchAll(/require\(((?:[^()]|\([^()]*\))*)\)/g)].map((m) => m[1])).toEqual([
      '"node:path"',
      'join(dist, "shim.cjs")',
    ]);
    expect(bin).toMatch(/shim\.runShim\(dist, process\.argv\.slice\(2\)\);/);
  });
});
