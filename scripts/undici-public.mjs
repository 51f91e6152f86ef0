// undici's public entry (index.js) requires every feature undici has when it loads: fetch, WebSocket,
// EventSource, caches, cookies, mocks, proxies (the HTTP client's chunk grew from ~460 KB to ~1 MB
// with it, and a request's start-up by the time to compile and run that). tokenintel's sources import
// public names from "undici" only; in the bundle, "undici" is this module instead: each public name
// the sources use, taken from the file index.js itself takes it from. The build checks, by loading
// undici, that each name here is the very object undici's public entry exports, so a new undici that
// moves one fails the build rather than shipping something else; a source that imports a name not
// listed here fails the build too (esbuild: no matching export). Tests run the sources unbundled,
// against undici's real entry.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Public name -> the file of undici's package that index.js takes it from. */
const USED = { Agent: "lib/dispatcher/agent.js" };

const require = createRequire(import.meta.url);
const sources = fileURLToPath(new URL("../src/", import.meta.url));

/** The esbuild plugin; throws when a listed name is not undici's public export of that file. */
export function undiciPublic() {
  const root = dirname(require.resolve("undici/package.json"));
  const entry = require("undici");
  for (const [name, file] of Object.entries(USED)) {
    if (entry[name] === undefined || entry[name] !== require(join(root, file)))
      throw new Error(`undici's public ${name} is no longer ${file}: update scripts/undici-public.mjs`);
  }
  const contents = Object.entries(USED)
    .map(([name, file]) => `export { default as ${name} } from ${JSON.stringify(join(root, file))};`)
    .join("\n");
  return {
    name: "undici-public",
    setup(b) {
      // Our sources only: a dependency that requires undici gets undici's own entry.
      b.onResolve({ filter: /^undici$/ }, (args) =>
        args.importer.startsWith(sources) ? { path: "undici", namespace: "undici-public" } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "undici-public" }, () => ({
        contents,
        loader: "js",
        resolveDir: root,
      }));
    },
  };
}
