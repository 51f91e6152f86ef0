import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { CliError } from "../errors.js";
import { describeFsError } from "./errors.js";

// Every file tokenintel keeps for the user (the config store, the response cache, the token index,
// the payment ledger, the compile cache's folder) is written here and nowhere else, by one set of
// rules: folders 0700 and the user's own, never reached through a symbolic link, never trusted when
// another user owns them or others may write to them; files 0600, written whole (a random temporary
// name in the same folder opened exclusively, fsync, rename, fsync of the folder); a failed write
// keeps the old file and says why in one line. Read-modify-write goes under a lock file.

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** A file or folder that cannot be used or written: one line, exit 1 (callers may re-type it). */
export class PrivateFileError extends CliError {
  readonly code: string | undefined;
  readonly path: string;
  constructor(message: string, path: string, code?: string) {
    super(message);
    this.path = path;
    this.code = code;
  }
}

/** What the ownership checks need (a test running as root injects another owner). */
export interface PrivacyChecks {
  /** The user who must own every path; undefined: no owners to compare (Windows). */
  uid?: number | undefined;
  /** lstat, injectable. */
  lstat?: (path: string) => Pick<Stats, "uid" | "mode" | "isDirectory" | "isFile" | "isSymbolicLink">;
}

const myUid = (checks: PrivacyChecks): number | undefined =>
  "uid" in checks ? checks.uid : process.getuid?.();

/**
 * Why a path must not be trusted, as ssh judges its own files: it is a symbolic link, it belongs to
 * someone else (root included, unless we are root), or others than the owner may write to it.
 * Undefined when it is fine. `what` names it in the message ("the config folder").
 */
export function untrustedReason(
  path: string,
  what: string,
  facts: { uid: number; mode: number },
  uid: number | undefined,
  fixMode = PRIVATE_FILE_MODE,
): string | undefined {
  if (uid === undefined) return undefined;
  if (facts.uid !== uid) return `${what} ${path} is not yours (owner uid ${facts.uid})`;
  if ((facts.mode & 0o022) !== 0) {
    const mode = (facts.mode & 0o777).toString(8).padStart(4, "0");
    return `${what} ${path} is writable by others (mode ${mode}); run: chmod ${fixMode.toString(8)} '${path}'`;
  }
  return undefined;
}

/**
 * Makes `dir` (and each missing folder above it) with mode 0700 whatever the umask, then checks the
 * folder itself: a real folder (not a link to one), the user's own, that no one else may write to.
 * An existing folder is never chmod-ed: it is used as it is, or refused.
 */
export function makePrivateDir(dir: string, what = "the folder", checks: PrivacyChecks = {}): void {
  createPrivateDirs(dir, what);
  checkPrivateDir(resolve(dir), what, checks);
}

/** Makes each missing folder of `dir` with mode 0700 whatever the umask; existing ones stay as they are. */
export function createPrivateDirs(dir: string, what = "the folder"): void {
  const target = resolve(dir);
  const missing: string[] = [];
  for (let d = target; ; d = dirname(d)) {
    try {
      lstatSync(d);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(d) === d) break;
      missing.unshift(d);
    }
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode: PRIVATE_DIR_MODE });
      chmodSync(d, PRIVATE_DIR_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") continue;
      throw new PrivateFileError(`cannot create ${what} ${d}: ${describeFsError(error)}`, d, code);
    }
  }
}

/** Throws when `dir` is missing, not a folder, a link, not the user's own, or writable by others. */
export function checkPrivateDir(dir: string, what = "the folder", checks: PrivacyChecks = {}): void {
  let facts: ReturnType<NonNullable<PrivacyChecks["lstat"]>>;
  try {
    facts = (checks.lstat ?? lstatSync)(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PrivateFileError(`cannot use ${what} ${dir}: ${describeFsError(error)}`, dir, code);
  }
  if (facts.isSymbolicLink()) {
    throw new PrivateFileError(`${what} ${dir} is a symbolic link; use the real folder's path`, dir, "ELOOP");
  }
  if (!facts.isDirectory()) throw new PrivateFileError(`${what} ${dir} is not a folder`, dir, "ENOTDIR");
  const reason = untrustedReason(dir, what, facts, myUid(checks), PRIVATE_DIR_MODE);
  if (reason) throw new PrivateFileError(reason, dir, "EPERM");
}

/**
 * Checks that files can be made in `dir` before work that ends in writing there (a sync that
 * downloads every page first): creates and removes a probe file. Throws the one-line reason.
 */
export function assertWritableDir(dir: string, what = "the folder"): void {
  const probe = join(dir, `.probe-${randomHex()}`);
  try {
    closeSync(openSync(probe, WRITE_NEW, PRIVATE_FILE_MODE));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PrivateFileError(`cannot write in ${what} ${dir}: ${describeFsError(error)}`, dir, code);
  }
  removeQuietly(probe);
}

/** The calls an atomic write makes, injectable so a test can fail one (a full disk). */
export interface WriteCalls {
  openSync: typeof openSync;
  writeSync: (fd: number, data: Buffer, offset: number, length: number) => number;
  fsyncSync: typeof fsyncSync;
  renameSync: typeof renameSync;
}
const REAL_CALLS: WriteCalls = {
  openSync,
  writeSync: (fd, data, offset, length) => writeSync(fd, data, offset, length),
  fsyncSync,
  renameSync,
};

/** Create only, write only, never through a link (O_NOFOLLOW where the platform has it). */
const WRITE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** node:crypto when a file is written, not at every start (loading it costs ~3 ms). */
function randomHex(): string {
  return process.getBuiltinModule("node:crypto").randomBytes(8).toString("hex");
}

/**
 * Replaces `file` with `data`, whole or not at all: a temporary file with a random name in the same
 * folder, created exclusively and never through a link, mode 0600, written, fsynced, renamed over
 * the file, and the folder fsynced where the platform allows. On failure the temporary file is
 * removed, the old file is left as it was, and the error says why in one line. `what` names the
 * file ("the token index"). The folder must exist (makePrivateDir).
 */
export function writePrivateFile(
  file: string,
  data: string | Buffer,
  what = "the file",
  calls: Partial<WriteCalls> = {},
): void {
  const fs = { ...REAL_CALLS, ...calls };
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${randomHex()}.tmp`);
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, WRITE_NEW, PRIVATE_FILE_MODE);
    fchmodSync(fd, PRIVATE_FILE_MODE); // the umask may have taken bits away; never adds any
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
    fs.fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    removeQuietly(temp);
    const code = (error as NodeJS.ErrnoException).code;
    throw new PrivateFileError(
      `could not write ${what} ${file}: ${describeFsError(error)}; the previous one was kept`,
      file,
      code,
    );
  }
  syncFolder(dir);
}

/** Makes a rename durable: fsync of the folder (not possible on Windows; never an error). */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Some platforms and file systems cannot fsync a folder; the rename itself was done.
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

export type PrivateRead =
  | { state: "missing" }
  | { state: "untrusted"; reason: string }
  | { state: "unreadable"; reason: string }
  | { state: "ok"; text: string };

/**
 * Reads a private file without following a link: missing, untrusted (not a plain file, not the
 * user's own, writable by others, larger than `maxBytes`), unreadable, or its text.
 */
export function readPrivateFile(
  file: string,
  what: string,
  maxBytes: number,
  checks: PrivacyChecks = {},
): PrivateRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { state: "missing" };
    if (code === "ELOOP") return { state: "untrusted", reason: `${what} ${file} is a symbolic link` };
    return { state: "unreadable", reason: `cannot read ${what} ${file}: ${describeFsError(error)}` };
  }
  try {
    const stat = fstatSync(fd);
    const facts = checks.lstat ? checks.lstat(file) : stat;
    if (!stat.isFile()) return { state: "untrusted", reason: `${what} ${file} is not a plain file` };
    const reason = untrustedReason(file, what, facts, myUid(checks));
    if (reason) return { state: "untrusted", reason };
    if (stat.size > maxBytes)
      return { state: "untrusted", reason: `${what} ${file} is larger than ${maxBytes} bytes` };
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { state: "ok", text: buffer.toString("utf8", 0, read) };
  } catch (error) {
    return { state: "unreadable", reason: `cannot read ${what} ${file}: ${describeFsError(error)}` };
  } finally {
    closeQuietly(fd);
  }
}

export function removeQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
