// The licences of what the bundle holds. esbuild's metafile names every file that put bytes into
// dist/; each one under node_modules belongs to a package whose package.json gives its name,
// version and licence, and whose folder holds the licence text that MIT, ISC, BSD and Apache all
// require to travel with the code. build.mjs writes them to dist/THIRD_PARTY_NOTICES.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";

/**
 * Licences (SPDX ids) the bundle may carry: all permissive, none asks more than keeping the
 * notice and the licence text. Apache-2.0 is here for the x402 packages; BSD-3-Clause for
 * fast-uri (via ajv, via conf); ISC for semver.
 */
export const ALLOWED_LICENSES = ["MIT", "ISC", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "0BSD"];

const LICENSE_FILE = /^(licen[cs]e|copying)(\.|-|$)/i;

/** The package folder a bundled file comes from: the path up to its last node_modules/<name>. */
export function packageDirOf(inputPath) {
  const path = inputPath.replace(/^[\w-]+:/, ""); // a plugin's namespace ("lazy-h2:/…/client-h2.js")
  const parts = path.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const take = parts[at + 1].startsWith("@") ? at + 3 : at + 2;
  return parts.slice(0, take).join(sep);
}

/** Every package folder that put at least one byte into an output (files tree-shaken to nothing do not count). */
export function bundledPackageDirs(metafile, cwd = process.cwd()) {
  const dirs = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const dir = packageDirOf(input);
      if (dir && bytesInOutput > 0) dirs.add(resolve(cwd, dir));
    }
  }
  return [...dirs];
}

/** The SPDX expression of a package.json's licence (older packages write {type} or a list). */
export function licenseOf(pkg) {
  if (typeof pkg.license === "string") return pkg.license;
  if (pkg.license?.type) return pkg.license.type;
  if (Array.isArray(pkg.licenses)) return pkg.licenses.map((l) => l.type ?? l).join(" OR ");
  return "UNKNOWN";
}

/** Whether an SPDX expression is allowed: a single id from the list, or an OR of which one is. */
export function isAllowedLicense(expression, allowed = ALLOWED_LICENSES) {
  const ids = expression.replace(/[()]/g, "").split(/\s+OR\s+/);
  return ids.some((id) => allowed.includes(id.trim()));
}

const fallbackTexts = new URL("./licenses/", import.meta.url);

/**
 * The licence text a package ships, or, for a package that declares a licence but ships no file
 * (the x402 packages: Apache-2.0, "files": ["dist"]), the licence's standard text.
 */
export function licenseTextOf(dir, license) {
  const file = readdirSync(dir).find((f) => LICENSE_FILE.test(f));
  const tidy = (text) => text.replace(/^\s*\n/, "").trimEnd(); // keep a centred first line centred
  if (file) return { text: tidy(readFileSync(join(dir, file), "utf8")), source: file };
  const standard = new URL(`${license}.txt`, fallbackTexts);
  if (existsSync(standard)) {
    return { text: tidy(readFileSync(standard, "utf8")), source: `the standard ${license} text` };
  }
  return undefined;
}

/** Name, version, licence and licence text of each bundled package, sorted by name then version. */
export function describePackages(dirs) {
  return dirs
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const license = licenseOf(pkg);
      const author = typeof pkg.author === "string" ? pkg.author : pkg.author?.name;
      const repository = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
      return {
        name: pkg.name,
        version: pkg.version,
        license,
        author,
        repository,
        dir,
        ...licenseTextOf(dir, license),
      };
    })
    .sort(
      (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, "en", { numeric: true }),
    );
}

/** Why the bundle may not ship as it is: licences outside the list, or no licence text. */
export function problemsOf(packages) {
  const problems = [];
  for (const p of packages) {
    if (!isAllowedLicense(p.license))
      problems.push(`${p.name}@${p.version}: licence ${p.license} is not allowed`);
    if (!p.text) problems.push(`${p.name}@${p.version}: no licence text found in ${p.dir}`);
  }
  return problems;
}

/** The notices file: one section per package, then the licence comments found inside the code. */
export function renderNotices(packages, legalComments = "") {
  const rule = "-".repeat(78);
  const head = [
    "THIRD-PARTY SOFTWARE NOTICES",
    "",
    "tokenintel's dist/ bundles code from the packages below. Each is listed with its version, its",
    "licence and the licence text it is distributed under.",
    "",
    ...packages.map((p) => `  ${p.name}@${p.version}  ${p.license}`),
  ];
  const sections = packages.map((p) =>
    [
      rule,
      `${p.name}@${p.version}`,
      `License: ${p.license}`,
      ...(p.author ? [`Author: ${p.author}`] : []),
      ...(p.repository ? [`Repository: ${p.repository}`] : []),
      `License text (${p.source}):`,
      "",
      p.text,
    ].join("\n"),
  );
  const comments = legalComments.trim()
    ? [[rule, "Licence comments kept from the bundled source files", "", legalComments.trim()].join("\n")]
    : [];
  return `${[head.join("\n"), ...sections, ...comments].join("\n\n")}\n`;
}
