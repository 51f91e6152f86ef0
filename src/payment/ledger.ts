import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import envPaths from "env-paths";
import { CliError, PaymentError } from "../errors.js";
import { describeFsError } from "../files/errors.js";
import { appendPrivateLine, withFileLock } from "../files/lock.js";
import { makePrivateDir, PrivateFileError, readPrivateFile, untrustedReason } from "../files/private.js";
import { CAP_WINDOW_MS, capRefusal, type DailyCap, type SignedPayment } from "./daily-cap.js";
import { type LedgerLine, type OutcomeLine, parseLedgerLine, type SignedLine } from "./ledger-lines.js";

// The payment ledger: one append-only JSON-lines file in tokenintel's data folder (never in the
// cache folder: `cache clear` does not touch it), mode 0600, written through the private-file
// module. Each line is appended whole under the file's lock and fsynced; a line that cannot be
// written stops the payment it records. The daily cap's check and the signed line's append are
// made under a second lock, so that two runs cannot both fit under the cap by the same room.

export const LEDGER_FILE_NAME = "payments.jsonl";
const WHAT = "the payment ledger";
/** `tokenintel payments` reads the whole ledger; one this large is refused, not read. */
export const MAX_LEDGER_BYTES = 256 * 1024 * 1024;
/** The tail is read back this far past the cap's window: a clock set back a little still counts. */
const CLOCK_SLACK_MS = 3_600_000;
const TAIL_CHUNK_BYTES = 64 * 1024;

/** tokenintel's data folder: TOKENINTEL_DATA_DIR, or the platform's ($XDG_DATA_HOME/tokenintel). */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOKENINTEL_DATA_DIR || envPaths("tokenintel", { suffix: "" }).data;
}

export function ledgerFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), LEDGER_FILE_NAME);
}

type NewSignedLine = Omit<SignedLine, "at">;
type NewOutcomeLine = Omit<OutcomeLine, "at">;

export class PaymentLedger {
  constructor(
    readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Before any request: the data folder exists (0700), is the user's, and no one else may write it. */
  prepare(): void {
    makePrivateDir(dirname(this.file), "the data folder");
  }

  /**
   * Appends the line of an authorization about to be sent. With a cap, the payments of the last
   * 24 hours are read and the cap checked under a lock that every run's check takes, so the line
   * appended is counted by the next check. Throws PaymentError (the cap) or PrivateFileError (the
   * line could not be written): either way the authorization must not be sent.
   */
  appendSigned(line: NewSignedLine, atomic: bigint, cap: DailyCap | undefined): void {
    const append = () => {
      const now = this.now();
      if (cap) {
        const refusal = capRefusal(this.signedSince(now - CAP_WINDOW_MS), atomic, cap, now);
        if (refusal) throw new PaymentError(refusal);
      }
      this.append({ at: new Date(now).toISOString(), ...line });
    };
    if (!cap) {
      append();
      return;
    }
    withFileLock(join(dirname(this.file), "payments.cap"), append, {
      what: "the payment ledger's daily cap",
    });
  }

  appendOutcome(line: NewOutcomeLine): void {
    this.append({ at: new Date(this.now()).toISOString(), ...line });
  }

  /**
   * The payments signed since `sinceMs`, read from the end of the file back to a line older than
   * that (less a little slack): a check costs the last day's lines, not the whole ledger.
   */
  signedSince(sinceMs: number): SignedPayment[] {
    const found: SignedPayment[] = [];
    this.readTail((line) => {
      if (line.kind !== "signed") return true;
      const atMs = Date.parse(line.at);
      if (atMs < sinceMs - CLOCK_SLACK_MS) return false;
      if (atMs > sinceMs) found.push({ atMs, atomic: BigInt(line.atomic) });
      return true;
    });
    return found;
  }

  /** Every line, in order, for `tokenintel payments`; `damaged` counts lines that are not whole. */
  readAll(): { lines: LedgerLine[]; damaged: number } {
    const read = readPrivateFile(this.file, WHAT, MAX_LEDGER_BYTES);
    if (read.state === "missing") return { lines: [], damaged: 0 };
    if (read.state !== "ok") throw new CliError(read.reason);
    const lines: LedgerLine[] = [];
    let damaged = 0;
    for (const text of read.text.split("\n")) {
      if (!text.trim()) continue;
      const line = parseLedgerLine(text);
      if (line) lines.push(line);
      else damaged++;
    }
    return { lines, damaged };
  }

  private append(line: LedgerLine): void {
    // A line torn by a crash (kill -9 in a write, a power cut) is ended first, so that it cannot
    // swallow the line written after it.
    const text = `${this.endsTorn() ? "\n" : ""}${JSON.stringify(line)}`;
    appendPrivateLine(this.file, text, { what: WHAT });
  }

  private endsTorn(): boolean {
    let torn = false;
    this.withOpenFile((fd, size) => {
      if (size === 0) return;
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      torn = last[0] !== 0x0a;
    });
    return torn;
  }

  /** Lines from the last to the first, while `visit` returns true; damaged lines are passed over. */
  private readTail(visit: (line: LedgerLine) => boolean): void {
    this.withOpenFile((fd, size) => {
      let end = size;
      let rest = Buffer.alloc(0); // the start of a line whose beginning is in an earlier chunk
      while (end > 0) {
        const start = Math.max(0, end - TAIL_CHUNK_BYTES);
        const chunk = Buffer.alloc(end - start);
        for (let at = 0; at < chunk.length; ) {
          const n = readSync(fd, chunk, at, chunk.length - at, start + at);
          if (n === 0) throw new Error("the file shrank while it was read");
          at += n;
        }
        const buffer = Buffer.concat([chunk, rest]);
        let lineEnd = buffer.length;
        for (let i = buffer.length - 1; i >= -1; i--) {
          if (i >= 0 && buffer[i] !== 0x0a) continue;
          if (i < 0 && start > 0) break; // this line began in the chunk before
          const line = parseLedgerLine(buffer.toString("utf8", i + 1, lineEnd));
          if (line && !visit(line)) return;
          lineEnd = i;
        }
        rest = buffer.subarray(0, Math.max(0, lineEnd));
        end = start;
      }
    });
  }

  /** Opens the ledger to read, never through a link, refusing one that is not the user's own. */
  private withOpenFile(work: (fd: number, size: number) => void): void {
    let fd: number;
    try {
      fd = openSync(this.file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      throw new PrivateFileError(
        `cannot read ${WHAT} ${this.file}: ${describeFsError(error)}`,
        this.file,
        code,
      );
    }
    try {
      const stat = fstatSync(fd);
      const reason = stat.isFile()
        ? untrustedReason(this.file, WHAT, stat, process.getuid?.())
        : `${WHAT} ${this.file} is not a plain file`;
      if (reason) throw new PrivateFileError(reason, this.file, "EPERM");
      work(fd, stat.size);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new PrivateFileError(`cannot read ${WHAT} ${this.file}: ${describeFsError(error)}`, this.file);
    } finally {
      closeSync(fd);
    }
  }
}
