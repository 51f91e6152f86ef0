import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { describeFsError } from "./errors.js";
import { PRIVATE_FILE_MODE, PrivateFileError, removeQuietly, untrustedReason } from "./private.js";

// Read-modify-write of a private file (two `config set` at once, a logout beside them, the payment
// ledger's appends) goes under a lock file beside it: `<file>.lock`, created exclusively, holding
// the holder's pid, host and a random token. A lock whose holder is gone (its pid no longer runs on
// this host) or that is older than `staleMs` is taken over; waiting is bounded, then one line says
// who holds it.

export interface LockOptions {
  /** How long to wait for another holder, in ms (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this whose holder cannot be checked (another host, no pid) is taken over (default 30 s). */
  staleMs?: number;
  /** Whether a pid runs on this host (injectable). */
  isAlive?: (pid: number) => boolean;
  /** Names the file in messages ("the config file"). */
  what?: string;
}

const LOCK_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // runs, as another user
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

interface Holder {
  pid: number | undefined;
  host: string;
  token: string;
  ino: number;
  ageMs: number;
}

function readHolder(lock: string): Holder | undefined {
  try {
    const stat = lstatSync(lock);
    const fd = openSync(lock, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    let text: string;
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
    const [pid, host = "", token = ""] = text.split("\n");
    const n = Number(pid);
    return {
      pid: Number.isInteger(n) && n > 0 ? n : undefined,
      host,
      token,
      ino: stat.ino,
      ageMs: Date.now() - stat.mtimeMs,
    };
  } catch {
    return undefined; // gone already: try again
  }
}

/** A break guard older than this was left by a process that died while breaking a lock. */
const GUARD_STALE_MS = 10_000;

/**
 * Takes a stale lock away, if it is still the one judged stale. The judgment may be old news: its
 * holder may have released the lock and ended, and another run taken a new lock since, even in the
 * same inode. So breakers take turns (a `.break` guard file, created exclusively), and under the
 * guard the lock is removed only if it still holds the judged holder's random token: a dead
 * holder cannot release its lock, and no one else may remove it meanwhile, so the file read is the
 * file removed.
 */
function breakStale(lock: string, judged: Holder): void {
  const guard = `${lock}.break`;
  try {
    closeSync(openSync(guard, LOCK_NEW, PRIVATE_FILE_MODE));
  } catch {
    // Another run is breaking it (or died doing so: its guard is cleared once old).
    try {
      if (Date.now() - lstatSync(guard).mtimeMs > GUARD_STALE_MS) removeQuietly(guard);
    } catch {
      // gone already
    }
    return;
  }
  try {
    const now = readHolder(lock);
    if (now && now.token === judged.token && now.ino === judged.ino) removeQuietly(lock);
  } finally {
    removeQuietly(guard);
  }
}

/** Takes the lock on `target` (waiting up to timeoutMs); returns the token that releases it. */
export function acquireLock(target: string, options: LockOptions = {}): string {
  const lock = `${target}.lock`;
  const { timeoutMs = 10_000, staleMs = 30_000, isAlive = pidRuns, what = "the file" } = options;
  const token = process.getBuiltinModule("node:crypto").randomBytes(8).toString("hex");
  const host = hostname();
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 40)) {
    try {
      const fd = openSync(lock, LOCK_NEW, PRIVATE_FILE_MODE);
      try {
        writeSync(fd, `${process.pid}\n${host}\n${token}\n`);
      } finally {
        closeSync(fd);
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new PrivateFileError(
          `cannot lock ${what} ${target}: ${describeFsError(error)}`,
          target,
          (error as NodeJS.ErrnoException).code,
        );
      }
    }
    const holder = readHolder(lock);
    if (!holder) continue;
    const checkable = holder.pid !== undefined && holder.host === host;
    const gone = checkable ? !isAlive(holder.pid!) : holder.ageMs > staleMs;
    if (gone) {
      breakStale(lock, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new PrivateFileError(
        `${what} ${target} is locked by another tokenintel (pid ${holder.pid ?? "unknown"}) for more than ${Math.round(timeoutMs / 1000)} s; try again, or remove ${lock} if no tokenintel is running`,
        target,
        "ELOCKED",
      );
    }
    sleepSync(delay + Math.random() * delay);
  }
}

/** Gives the lock back, unless it was taken over (stale) and is someone else's now. */
export function releaseLock(target: string, token: string): void {
  if (holdsLock(target, token)) removeQuietly(`${target}.lock`);
}

/** Whether the lock on `target` is still the one `token` took (not broken and taken by another). */
export function holdsLock(target: string, token: string): boolean {
  return readHolder(`${target}.lock`)?.token === token;
}

/**
 * Runs `work` holding the lock on `target`: what it reads is what no one else changes meanwhile.
 * `work` is handed a check that says whether the lock is still held, for a write that must not be
 * made by a holder whose lock was taken over.
 */
export function withFileLock<T>(
  target: string,
  work: (stillHeld: () => boolean) => T,
  options: LockOptions = {},
): T {
  const token = acquireLock(target, options);
  try {
    return work(() => holdsLock(target, token));
  } finally {
    releaseLock(target, token);
  }
}

/**
 * Appends one line to a private file under its lock (the payment ledger): created 0600, never
 * through a link, refused when it is not the user's own or others may write to it, fsynced; a
 * failed append is cut back so that the file keeps only whole lines. A line given as a function is
 * made under the lock, so it may depend on the lines before it.
 */
export function appendPrivateLine(
  file: string,
  line: string | (() => string),
  options: LockOptions = {},
): void {
  const what = options.what ?? "the file";
  withFileLock(
    file,
    () => {
      let fd: number | undefined;
      let keepBytes: number | undefined;
      try {
        fd = openSync(
          file,
          constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
          PRIVATE_FILE_MODE,
        );
        const stat = fstatSync(fd);
        const reason = stat.isFile()
          ? untrustedReason(file, what, stat, process.getuid?.())
          : `${what} ${file} is not a plain file`;
        if (reason) throw new PrivateFileError(reason, file, "EPERM");
        keepBytes = stat.size;
        const text = typeof line === "string" ? line : line();
        const bytes = Buffer.from(text.endsWith("\n") ? text : `${text}\n`);
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
        fsyncSync(fd);
      } catch (error) {
        if (fd !== undefined && keepBytes !== undefined) {
          try {
            ftruncateSync(fd, keepBytes);
          } catch {
            // nothing more to undo
          }
        }
        if (error instanceof PrivateFileError) throw error;
        throw new PrivateFileError(
          `could not write ${what} ${file}: ${describeFsError(error)}; the previous one was kept`,
          file,
          (error as NodeJS.ErrnoException).code,
        );
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
    options,
  );
}
