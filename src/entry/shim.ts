import module from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readCommandLine } from "./command-line.js";
import { printHelp } from "./help.js";
import { printVersion } from "./version.js";

// dist/shim.cjs: all that bin/tokenintel.js does. CommonJS, as the bin file is (bin/package.json):
// Node loads a CommonJS entry ~5 ms faster than an ES module, which is most of what `--version` and
// `--help` cost. Those two are answered here, with the pages the build wrote to dist/help.json;
// anything else turns on the compile cache (dist/compile-cache.cjs) and loads an ES bundle:
// dist/complete.js for shell completion (`__complete`, on every Tab: the token index reader
// alone), else the program, dist/cli.js.

type CompileCacheBundle = typeof import("./compile-cache.js");

/** Runs the command line `args` with the bundles in `dist`. */
export function runShim(dist: string, args: readonly string[]): void {
  const load = module.createRequire(join(dist, "shim.cjs"));
  const line = readCommandLine(args);
  try {
    if (line.version === "plain") {
      printVersion();
      return;
    }
    if (
      line.helpPath !== undefined &&
      printHelp(line.helpPath, join(dist, "help.json"), () => helpWidth(load))
    )
      return;
  } catch (error) {
    notBuilt(error, dist);
  }
  // TOKENINTEL_V8_FLAGS=0: none, for the bench's trials (scripts/trials.mjs) of what they are worth.
  const flags =
    process.env.TOKENINTEL_V8_FLAGS === "0"
      ? ""
      : v8Flags(
          Number.parseInt(process.versions.node, 10),
          line.ndjson || process.env.TOKENINTEL_OUTPUT === "ndjson",
        );
  if (flags) (load("node:v8") as typeof import("node:v8")).setFlagsFromString(flags);
  const bundle = join(dist, line.complete ? "complete.js" : "cli.js");
  try {
    // dist/compile-cache.cjs: the private folder's checks, which --version and --help never load.
    (load("./compile-cache.cjs") as CompileCacheBundle).enableCompileCache();
  } catch (error) {
    notBuilt(error, dist);
  }
  import(pathToFileURL(bundle).href).catch((error: unknown) => notBuilt(error, dist));
}

/**
 * V8 flags, set before any of the program runs, on the lines they help. undici parses HTTP with
 * llhttp compiled to WebAssembly; on Node 20 V8 re-compiles it with its optimizing tier in the
 * background, and a short-lived process then waits ~80 ms at exit for that job: Liftoff only there
 * (Node 22 and later do not wait, and the flag with node:v8 costs them ~12 ms). A stream of records
 * (NDJSON) makes garbage at a steady rate and keeps almost nothing, yet V8 doubles its young
 * generation as bytes survive its collections: growth factor 1 keeps it at its starting size (7-12
 * MB less peak memory in a 100,000-record stream, every line); Maglev's code for a loop TurboFan
 * optimises anyway is 2-4 MB more on Node 24 and later. Only for a run that asks for NDJSON on its
 * command line or in TOKENINTEL_OUTPUT: a young generation that small costs a one-request run ~10%
 * more CPU.
 */
export function v8Flags(major: number, streams: boolean): string {
  return [
    major < 22 ? "--liftoff-only" : "",
    streams ? "--semi-space-growth-factor=1" : "",
    streams && major >= 24 ? "--no-maglev" : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * commander's width for help: the terminal's when stdout is one, else 80. node:tty is loaded only
 * here (--version never needs it), and process.stdout is made only for a terminal's width.
 */
function helpWidth(load: NodeJS.Require): number {
  const { isatty } = load("node:tty") as typeof import("node:tty");
  return (isatty(1) ? process.stdout.columns : undefined) ?? 80;
}

/** A bundle missing from dist/: one line saying how to build it, exit 1. Anything else is thrown. */
function notBuilt(error: unknown, dist: string): never {
  const e = error as { code?: string; url?: string; path?: string; message?: string } | undefined;
  if (e?.code === "MODULE_NOT_FOUND" || e?.code === "ERR_MODULE_NOT_FOUND" || e?.code === "ENOENT") {
    const where = String(e.url ? decodeURIComponent(e.url) : (e.path ?? e.message));
    if (where.includes(dist)) {
      process.stderr.write("tokenintel: not built yet; run 'npm run build' (npm install does it)\n");
      process.exit(1);
    }
  }
  throw error;
}
