import { closeSync, lstatSync, openSync, readSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { describeFsError } from "../../files/errors.js";
import { createPrivateDirs, writePrivateFile } from "../../files/private.js";
import { DEFAULT_SKILL_DIR, SKILL_NAME, writtenBySkill } from "./clients.js";

// `tokenintel skill install`: SKILL.md into <dir>/tokenintel/, written whole (a temporary file
// renamed over it), and only over a file it wrote itself: a SKILL.md without its mark, or anything
// that is not a plain file, is left as it is (exit 2, naming it).

/** The most of an existing SKILL.md read to find the mark (the front matter comes first). */
const HEAD_BYTES = 64 * 1024;

/** `~` or `~/...` as the home folder (a shell expands it, `--dir=~/...` leaves it). */
function expandHome(dir: string, home: string): string {
  return dir === "~" ? home : dir.startsWith("~/") ? join(home, dir.slice(2)) : dir;
}

function readHead(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** Throws when `file` exists and is not a SKILL.md `skill install` wrote. */
function refuseForeign(file: string): void {
  let isFile: boolean;
  try {
    isFile = lstatSync(file).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new UsageError(`cannot check ${file}: ${describeFsError(error)}`);
  }
  const foreign = `${file} was not written by 'tokenintel skill install': left as it is (move it away, or give another --dir)`;
  if (!isFile) throw new UsageError(foreign);
  let head: string;
  try {
    head = readHead(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${describeFsError(error)}`);
  }
  if (!writtenBySkill(head)) throw new UsageError(foreign);
}

/** Writes the skill's text to <dir>/tokenintel/SKILL.md; returns the file's path. */
export function installSkill(ctx: RunContext, text: string, dir: string | undefined): string {
  const home = ctx.io.env.HOME || homedir();
  const folder = join(resolve(expandHome(dir ?? DEFAULT_SKILL_DIR, home)), SKILL_NAME);
  const file = join(folder, "SKILL.md");
  refuseForeign(file);
  createPrivateDirs(folder, "the skill folder");
  writePrivateFile(file, text, "the skill file");
  return file;
}
