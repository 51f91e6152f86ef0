import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

// The import graph of a program, read by TypeScript itself (its parser and its module resolution,
// with the project's compiler options), for the layer rules of imports.test.ts: every way a file
// can reach another is an edge, and an import() whose target is computed is reported, never
// passed over.

export interface Edge {
  /** The file imported: resolved by TypeScript, or, when it resolves to none, the path asked for. */
  to: string;
  /** Loaded when the importing module loads (a static import of values), not on demand or for types. */
  eager: boolean;
}

export interface FileImports {
  edges: Edge[];
  /** Packages (and node: modules) the file loads when it loads. */
  packages: string[];
  /** Each import() whose target is not written as a literal: "line 12: import(name)". */
  computed: string[];
  /** The UPPER_CASE constants it exports (its limits and facts). */
  limits: string[];
}

export interface ImportGraph {
  root: string;
  files: string[];
  imports: Map<string, FileImports>;
}

const CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../tsconfig.json");

/** The project's compiler options (module resolution), from tsconfig.json. */
function compilerOptions(): ts.CompilerOptions {
  const { config } = ts.readConfigFile(CONFIG, ts.sys.readFile);
  return ts.convertCompilerOptionsFromJson(config.compilerOptions, dirname(CONFIG)).options;
}

const isRelative = (spec: string) => spec.startsWith("./") || spec.startsWith("../");

/** The target of import(x) or import("x") as a type, when it is written as a literal. */
function literal(node: ts.Node | undefined): string | undefined {
  if (node && ts.isLiteralTypeNode(node)) return literal(node.literal);
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    ? node.text
    : undefined;
}

/** Whether a variable statement is `export const`. */
function exportedConst(node: ts.VariableStatement): boolean {
  const exported = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
  return exported && (node.declarationList.flags & ts.NodeFlags.Const) !== 0;
}

/** One file's imports: its text parsed by TypeScript, each module specifier found in the tree. */
export function readImports(
  file: string,
  text: string,
): {
  specs: { spec: string; eager: boolean }[];
  computed: string[];
  limits: string[];
} {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const specs: { spec: string; eager: boolean }[] = [];
  const computed: string[] = [];
  const limits: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier);
      const typeOnly = ts.isImportDeclaration(node) ? !!node.importClause?.isTypeOnly : node.isTypeOnly;
      if (spec !== undefined) specs.push({ spec, eager: !typeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const spec = literal(node.moduleReference.expression);
      if (spec !== undefined) specs.push({ spec, eager: !node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const spec = literal(node.arguments[0]);
      if (spec !== undefined) specs.push({ spec, eager: false });
      else {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        computed.push(`line ${line + 1}: ${node.getText(source).replace(/\s+/g, " ")}`);
      }
    } else if (ts.isImportTypeNode(node)) {
      const spec = literal(node.argument);
      if (spec !== undefined) specs.push({ spec, eager: false });
    } else if (ts.isVariableStatement(node) && exportedConst(node)) {
      for (const d of node.declarationList.declarations)
        if (ts.isIdentifier(d.name) && /^[A-Z][A-Z0-9_]*$/.test(d.name.text)) limits.push(d.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specs, computed, limits };
}

/**
 * The import graph of the .ts files of `sources` (path → text, every path under `root`), each
 * relative specifier resolved by TypeScript as the compiler resolves it in an ES module (the
 * package's "type"), so that "./x.js" is the x.ts beside it.
 */
export function importGraph(root: string, sources: Map<string, string>): ImportGraph {
  const options = compilerOptions();
  const host: ts.ModuleResolutionHost = {
    fileExists: (f) => sources.has(f),
    readFile: (f) => sources.get(f),
  };
  const cache = ts.createModuleResolutionCache(root, (f) => f, options);
  const imports = new Map<string, FileImports>();
  for (const [file, text] of sources) {
    const { specs, computed, limits } = readImports(file, text);
    const edges: Edge[] = [];
    const packages: string[] = [];
    for (const { spec, eager } of specs) {
      if (!isRelative(spec)) {
        if (eager) packages.push(spec);
        continue;
      }
      const mode = ts.ModuleKind.ESNext;
      const found = ts.resolveModuleName(spec, file, options, host, cache, undefined, mode).resolvedModule;
      edges.push({ to: found?.resolvedFileName ?? resolve(dirname(file), spec), eager });
    }
    imports.set(file, { edges, packages, computed, limits });
  }
  return { root, files: [...sources.keys()], imports };
}

/** The .ts files under a folder, with their text. */
export function readSources(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".ts")) out.set(path, readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return out;
}

/** A file's name under the graph's root: "commands/market/index.ts". */
export const nameIn = (graph: ImportGraph, file: string) => relative(graph.root, file);

/** The folder a file belongs to: its folder under the root (a command's own folder), or its name. */
export function folderOf(graph: ImportGraph, file: string): string {
  const parts = nameIn(graph, file).split("/");
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, "");
  return parts[0] === "commands" && parts.length > 2 ? `commands/${parts[1]}` : parts[0]!;
}

/** The loops between folders: each strongly connected set of two or more folders (Tarjan). */
export function folderLoops(edges: Iterable<string>): string[][] {
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

/** The files and packages `entry` (a name under the root) loads at start, through static imports. */
export function loadedAtStart(graph: ImportGraph, entry: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [join(graph.root, entry)];
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const e of graph.imports.get(f)?.edges ?? []) if (e.eager) queue.push(e.to);
    for (const p of graph.imports.get(f)?.packages ?? []) packages.add(p);
  }
  seen.delete(join(graph.root, entry));
  return { files: [...seen].map((f) => nameIn(graph, f)).sort(), packages: [...packages].sort() };
}
