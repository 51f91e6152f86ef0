import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// dist/THIRD_PARTY_NOTICES must name every package whose code is in the bundle, with a licence this
// project may ship and the licence text. What is in the bundle is read here from esbuild's metafile
// of the build that made dist/ (.cache/metafile.json), independently of how the build wrote the file.

/** Permissive licences only: keeping the notice and the licence text is all they ask. */
const ALLOWED = ["MIT", "ISC", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "0BSD"];

const root = fileURLToPath(new URL("../../", import.meta.url));
const metafilePath = join(root, ".cache", "metafile.json");
const noticesPath = join(root, "dist", "THIRD_PARTY_NOTICES");

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/** Folders of the packages that put bytes into dist/, from the metafile's outputs. */
function bundledPackages(metafile: Metafile): string[] {
  const dirs = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0) continue;
      const m = /^(?:[\w-]+:)?(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (m) dirs.add(resolve(root, m[1]!));
    }
  }
  return [...dirs];
}

describe("dist/THIRD_PARTY_NOTICES", () => {
  const built = existsSync(metafilePath) && existsSync(noticesPath);
  it("is written by the build, with the metafile of that build", () => {
    expect(built, "run `npm run build` first").toBe(true);
    const metafile = JSON.parse(readFileSync(metafilePath, "utf8")) as Metafile;
    // The metafile describes the dist/ on disk: same files, no more, no fewer.
    const outputs = Object.keys(metafile.outputs)
      .filter((o) => o.endsWith(".js"))
      .map((o) => resolve(root, o));
    const onDisk = readdirSync(join(root, "dist"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".js"))
      .map((f) => resolve(root, "dist", f));
    expect(onDisk.sort()).toEqual(outputs.sort());
  });

  it.runIf(built)(
    "names every bundled package with its version, an allowed licence and its licence text",
    () => {
      const metafile = JSON.parse(readFileSync(metafilePath, "utf8")) as Metafile;
      const notices = readFileSync(noticesPath, "utf8");
      const sections = new Map(
        notices
          .split(/^-{78}$/m)
          .slice(1)
          .map((s) => [s.trim().split("\n")[0]!, s] as const),
      );
      const dirs = bundledPackages(metafile);
      // undici, zod, commander... and viem with the x402 packages: a bundle of fewer is a broken build.
      expect(dirs.length).toBeGreaterThan(20);
      const problems: string[] = [];
      for (const dir of dirs) {
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
        const id = `${pkg.name}@${pkg.version}`;
        const section = sections.get(id);
        if (!section) {
          problems.push(`${id}: missing`);
          continue;
        }
        if (!ALLOWED.includes(pkg.license)) problems.push(`${id}: licence ${pkg.license} is not allowed`);
        if (!section.includes(`\nLicense: ${pkg.license}\n`)) problems.push(`${id}: licence not stated`);
        const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
        const text = file
          ? readFileSync(join(dir, file), "utf8").trim()
          : readFileSync(join(root, "scripts", "licenses", `${pkg.license}.txt`), "utf8").trim();
        if (!section.includes(text)) problems.push(`${id}: licence text missing`);
      }
      expect(problems).toEqual([]);
      // Nothing listed that is not bundled (a package tree-shaken away has no code to license).
      expect(sections.size).toBe(dirs.length + 1); // + the licence comments kept from the source
    },
  );

  it.runIf(built)("keeps the licence comments found in the bundled code", () => {
    const notices = readFileSync(noticesPath, "utf8");
    // undici carries a copy of formdata-polyfill, whose notice is only in a comment.
    expect(notices).toContain("formdata-polyfill. MIT License. Jimmy Wärting");
    expect(
      readdirSync(join(root, "dist"), { recursive: true }).filter((f) => String(f).endsWith(".LEGAL.txt")),
    ).toEqual([]);
  });
});
