import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  folderLoops,
  folderOf,
  type ImportGraph,
  importGraph,
  loadedAtStart,
  nameIn,
  readSources,
} from "./import-graph.js";

// The import graph of src/ kept to the layers docs/development.md draws ("Architecture: where a new
// thing goes"): no import reaches up a layer, no two folders import each other (directly or round
// a loop), no cycle runs at load time, and each bundle starts from src/entry/ with what it may load
// at start written down here. The imports are read by TypeScript (import-graph.ts): every static
// import, `import type`, re-export, import() and import("…") as a type, resolved as tsc resolves it.

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

/**
 * Folders that only some folders may import (besides their own files), at load time, on demand or
 * for a type. The local API starts in-process from the entry point, which hands a starter to the
 * context for --sandbox, or from its own command: the core never reaches it by itself.
 */
const ONLY_FROM: Record<string, readonly string[]> = {
  sandbox: ["entry", "commands/sandbox"],
};

/**
 * The import()s whose target is computed, by file and the text of the call: each loads something
 * outside src/, which no rule here can place, and says what.
 */
const COMPUTED_IMPORTS: Record<string, readonly string[]> = {
  // The bundle of dist/ the command line asks for (cli.js or complete.js), by its file URL.
  "entry/shim.ts": ["import(pathToFileURL(bundle).href)"],
};

const src = importGraph(SRC, readSources(SRC));
const files = src.files;
const graph = new Map(files.map((f) => [f, src.imports.get(f)!.edges]));
const name = (f: string) => nameIn(src, f);

const layerOf = (folder: string) => LAYERS.findIndex((layer) => layer.includes(folder.split("/")[0]!));

/** Each import between two folders: "from -> to", with the files that make it. */
function folderEdges(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [f, list] of graph) {
    for (const e of list) {
      const [from, to] = [folderOf(src, f), folderOf(src, e.to)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, (edges.get(key) ?? new Set()).add(`${name(f)} -> ${name(e.to)}`));
    }
  }
  return edges;
}

/** Each import that reaches up a layer: "from -> to". */
function upwardImports(g: ImportGraph): string[] {
  return [...g.imports].flatMap(([f, { edges }]) =>
    edges
      .filter((e) => layerOf(folderOf(g, e.to)) < layerOf(folderOf(g, f)))
      .map((e) => `${nameIn(g, f)} -> ${nameIn(g, e.to)}`),
  );
}

/** Each import of a folder of ONLY_FROM by a folder it does not name: "from -> to". */
function importsNotAllowed(g: ImportGraph): string[] {
  return [...g.imports].flatMap(([f, { edges }]) =>
    edges
      .filter((e) => {
        const [from, to] = [folderOf(g, f), folderOf(g, e.to).split("/")[0]!];
        return Object.hasOwn(ONLY_FROM, to) && from.split("/")[0] !== to && !ONLY_FROM[to]!.includes(from);
      })
      .map((e) => `${nameIn(g, f)} -> ${nameIn(g, e.to)}`),
  );
}

/** Each import() whose target TypeScript cannot read, but those COMPUTED_IMPORTS names. */
function computedImports(g: ImportGraph): string[] {
  return [...g.imports].flatMap(([f, { computed }]) =>
    computed
      .filter((c) => !(COMPUTED_IMPORTS[nameIn(g, f)] ?? []).includes(c.replace(/^line \d+: /, "")))
      .map((c) => `${nameIn(g, f)} ${c}`),
  );
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
    const unplaced = [...new Set(files.map((f) => folderOf(src, f)))].filter((folder) => layerOf(folder) < 0);
    expect(unplaced).toEqual([]);
  });

  it("no import reaches up a layer: at load time, on demand or for a type", () => {
    expect(upwardImports(src)).toEqual([]);
  });

  it("the sandbox is imported only by the entry point and the sandbox command (ONLY_FROM)", () => {
    expect(importsNotAllowed(src)).toEqual([]);
  });

  it("every import() in src/ says where it goes in a literal, TypeScript's to read", () => {
    expect(computedImports(src)).toEqual([]);
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
      for (const limit of src.imports.get(f)!.limits)
        defined.set(limit, [...(defined.get(limit) ?? []), name(f)]);
    expect([...defined].filter(([, where]) => where.length > 1)).toEqual([]);
  });
});

describe("the reading of imports, on a program of a few files", () => {
  // Each file of risk/ (a service) reaches the program, two layers out, in another way.
  const FIXTURE = "/fixture/src";
  const program = (files: Record<string, string>) =>
    importGraph(FIXTURE, new Map(Object.entries(files).map(([f, text]) => [join(FIXTURE, f), text])));
  const fixture = program({
    "program.ts": "export const COMMANDS = {};\nexport type Program = object;\n",
    "json/exact.ts": "export const parse = JSON.parse;\n",
    "risk/ok.ts": 'import { parse } from "../json/exact.js";\nexport const read = parse;\n',
    "risk/template.ts": "export const load = () => import(`../program.js`);\n",
    "risk/type.ts": 'import type { Program } from "../program.js";\nexport let p: Program | undefined;\n',
    "risk/re-export.ts": 'export { COMMANDS } from "../program.js";\n',
    "risk/type-query.ts": 'export let m: typeof import("../program.js") | undefined;\n',
    "risk/computed.ts": 'const at = "../program.js";\nexport const load = () => import(at);\n',
    "context.ts": 'export const start = () => import("./sandbox/server.js");\n',
    "sandbox/server.ts": "export const startSandbox = () => {};\n",
  });

  it.each([
    ["an import() of a template literal", "risk/template.ts"],
    ["an import type", "risk/type.ts"],
    ["a re-export", "risk/re-export.ts"],
    ['an import("…") as a type', "risk/type-query.ts"],
  ])("%s that reaches up a layer is caught", (_, file) => {
    expect(upwardImports(fixture)).toContain(`${file} -> program.ts`);
  });

  it("an import down a layer is not, and each edge resolves to the .ts file", () => {
    expect(upwardImports(fixture).filter((e) => e.startsWith("risk/ok.ts"))).toEqual([]);
    expect(fixture.imports.get(join(FIXTURE, "risk/ok.ts"))!.edges).toEqual([
      { to: join(FIXTURE, "json/exact.ts"), eager: true },
    ]);
    expect(fixture.imports.get(join(FIXTURE, "risk/type.ts"))!.edges[0]!.eager).toBe(false);
  });

  it("an import() of a computed target is reported, with its line", () => {
    expect(computedImports(fixture)).toEqual(["risk/computed.ts line 2: import(at)"]);
  });

  it("the context reaching the sandbox is caught (ONLY_FROM)", () => {
    expect(importsNotAllowed(fixture)).toEqual(["context.ts -> sandbox/server.ts"]);
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
      "contract/shapes.ts",
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
      const loaded = loadedAtStart(src, entry);
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
