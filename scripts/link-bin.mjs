// `npx tokenintel` in a clone of this repository looks in node_modules/.bin, where npm links the
// bins of dependencies but not the project's own. Link it there too, so the README's first command
// works on a fresh clone.
import { chmod, lstat, mkdir, symlink, unlink } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const binDir = join(root, "node_modules", ".bin");
const target = join(root, "bin", "tokenintel.js");
const link = join(binDir, "tokenintel");

await chmod(target, 0o755);
await mkdir(binDir, { recursive: true });
try {
  await lstat(link);
  await unlink(link);
} catch {
  // no link yet
}
await symlink(relative(binDir, target), link);
