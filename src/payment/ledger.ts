import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { dataDir } from "../config/locations.js";
import { CliError, PaymentError } from "../errors.js";
import { describeFsError } from "../files/errors.js";
import { appendPrivateLine, withFileLock } from "../files/lock.js";
import { makePrivateDir, PrivateFileError, readPrivateFile, untrustedReason } from "../files/private.js";
import { CAP_WINDOW_MS, type CapLedger, capRefusal, type DailyCap, type SignedPayment } from "./daily-cap.js";
import {
  boundedSignedLine,
  type LedgerLine,
  type OutcomeLine,
  parseLedgerLine,
  type SignedLine,
  salvageSigned,
} from "./ledger-lines.js";
import { readLinesBackward, type TailLine } from "./ledger-tail.js";

// The payment ledger: one append-only JSON-lines file in tokenintel's data folder (never in the
// cache folder: `cache clear` does not touch it), mode 0600, written through the private-file
// module. Each line is appended whole under the file's lock and fsynced; a line that cannot be
// written stops the payment it records. The daily cap's check and the signed line's append are
// made under a second lock, so that two runs cannot both fit under the cap by the same room.

export const LEDGER_FILE_NAME = "payments.jsonl";
/** The ledger of runs with --sandbox, apart from the real one. */
export const SANDBOX_LEDGER_FILE_NAME = "payments-sandbox.jsonl";
const WHAT = "the payment ledger";
/** `tokenintel payments` reads the whole ledger; one this large is refused, not read. */
export const MAX_LEDGER_BYTES = 256 * 1024 * 1024;
/**
 * The cap reads back from the end to a line whose `latest` (it and every line before it) is older
 * than the window, less a little slack; through every line that has none (an older tokenintel's,
 * or one damaged), whatever its own date: a line dated long ago may follow a payment of the last
 * hour, written while the clock was set back.
 */
const CLOCK_SLACK_MS = 3_600_000;

export function ledgerFile(env: NodeJS.ProcessEnv = process.env, sandbox = false): string {
  // The sandbox's payments are play money: a ledger of their own, never counted by the real cap.
  return join(dataDir(env), sandbox ? SANDBOX_LEDGER_FILE_NAME : LEDGER_FILE_NAME);
}

type NewSignedLine = Omit<SignedLine, "at" | "latest">;
type NewOutcomeLine = Omit<OutcomeLine, "at" | "latest">;

/** A line as the cap reads it: its date (NaN: unreadable) and, for a signed payment, its amount. */
export interface CapEntry {
  atMs: number;
  /** Its `latest` (NaN: none, or unreadable). */
  latestMs: number;
  signed: boolean;
  /** undefined: a signed line whose amount cannot be read. */
  atomic: bigint | undefined;
  /** Whom the payment was for: null for no one named, undefined when a damaged line cannot say. */
  holder?: string | null | undefined;
}

function capEntry(raw: TailLine): CapEntry {
  const line = raw.text === undefined ? undefined : parseLedgerLine(raw.text);
  if (line)
    return {
      atMs: Date.parse(line.at),
      latestMs: typeof line.latest === "string" ? Date.parse(line.latest) : Number.NaN,
      signed: line.kind === "signed",
      atomic: line.kind === "signed" ? BigInt(line.atomic) : undefined,
      holder: line.kind === "signed" ? (line.holder ?? null) : null,
    };
  const damaged = salvageSigned(raw.head, raw.text);
  return {
    atMs: damaged?.atMs ?? Number.NaN,
    latestMs: Number.NaN,
    signed: damaged !== undefined,
    atomic: damaged?.atomic,
    holder: damaged?.holder,
  };
}

/**
 * The payments as the cap counts them, from the lines in file order (oldest first). Lines are
 * appended in the order they were signed, so a line dated before one written ahead of it was
 * signed no earlier than that one: it counts from that date (a clock set back cannot age it out).
 * A date in the future counts as it is (it stays in the window longer); a date that cannot be read,
 * as now. A signed line whose amount cannot be read is counted as unreadable. With `holder`, only
 * the payments made for it count (and a damaged line that cannot say whom it was for).
 */
export function countForCap(
  entries: readonly Omit<CapEntry, "latestMs">[],
  now: number,
  file: string,
  holder?: string,
): CapLedger {
  const since = now - CAP_WINDOW_MS;
  let latest = Number.NEGATIVE_INFINITY; // the latest date, not in the future, of a line before
  const payments: SignedPayment[] = [];
  let unreadable = 0;
  for (const e of entries) {
    const atMs = Number.isNaN(e.atMs) ? now : e.atMs > now ? e.atMs : Math.max(e.atMs, latest);
    if (e.atMs <= now) latest = Math.max(latest, e.atMs);
    if (!e.signed || atMs <= since) continue;
    if (holder !== undefined && e.holder !== undefined && e.holder !== holder) continue;
    if (e.atomic === undefined) unreadable++;
    else payments.push({ atMs, atomic: e.atomic });
  }
  return { payments, unreadable, file };
}

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
   * appended is counted by the next check; `holderCap` is the cap of the holder the line names,
   * checked there too. Throws PaymentError (a cap) or PrivateFileError (the line could not be
   * written): either way the authorization must not be sent.
   */
  appendSigned(line: NewSignedLine, atomic: bigint, cap: DailyCap | undefined, holderCap?: DailyCap): void {
    const caps: Array<[DailyCap, string | undefined]> = [];
    if (cap) caps.push([cap, undefined]);
    if (holderCap && line.holder !== undefined) caps.push([holderCap, line.holder]);
    const append = (stillHeld: () => boolean) => {
      const now = this.now();
      for (const [each, holder] of caps) {
        const refusal = capRefusal(this.forCap(now, holder), atomic, each, now);
        if (refusal) throw new PaymentError(refusal);
      }
      if (caps.length) {
        // A lock is broken only when its holder is gone; were this one's taken over all the same,
        // another run may be counting without this payment: it is not made.
        if (!stillHeld())
          throw new PaymentError(
            "refusing to pay: the daily cap's lock was taken over by another run while this one checked the cap; nothing was sent",
          );
      }
      this.append({ at: new Date(now).toISOString(), ...boundedSignedLine(line) });
    };
    if (!caps.length) {
      append(() => true);
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
   * What the daily cap counts at `now`: the lines back from the end to one that says no line up to
   * it is dated in the window (its `latest`), or to the first; with `holder`, its payments alone.
   */
  forCap(now: number, holder?: string): CapLedger {
    const stopBefore = now - CAP_WINDOW_MS - CLOCK_SLACK_MS;
    const entries: CapEntry[] = [];
    this.withOpenFile((fd, size) =>
      readLinesBackward(fd, size, (raw) => {
        const entry = capEntry(raw);
        entries.push(entry);
        // NaN (no latest, no date) is never older: the read goes on.
        return !(Math.max(entry.latestMs, entry.atMs) < stopBefore);
      }),
    );
    return countForCap(entries.reverse(), now, this.file, holder);
  }

  /** The latest date of the lines written so far (back to one that carries its `latest`); -Infinity for none. */
  private latestSoFar(): number {
    let latest = Number.NEGATIVE_INFINITY;
    this.withOpenFile((fd, size) =>
      readLinesBackward(fd, size, (raw) => {
        const { atMs, latestMs } = capEntry(raw);
        if (!Number.isNaN(atMs)) latest = Math.max(latest, atMs);
        if (Number.isNaN(latestMs)) return true;
        latest = Math.max(latest, latestMs);
        return false;
      }),
    );
    return latest;
  }

  /**
   * Every line, in order, for `tokenintel payments`; `damaged` counts lines that cannot be read,
   * `damagedSigned` those of them that say they are signed payments (the cap counts or stops at them).
   */
  readAll(): { lines: LedgerLine[]; damaged: number; damagedSigned: number } {
    const read = readPrivateFile(this.file, WHAT, MAX_LEDGER_BYTES);
    if (read.state === "missing") return { lines: [], damaged: 0, damagedSigned: 0 };
    if (read.state !== "ok") throw new CliError(read.reason);
    const lines: LedgerLine[] = [];
    let damaged = 0;
    let damagedSigned = 0;
    for (const text of read.text.split("\n")) {
      if (!text.trim()) continue;
      const line = parseLedgerLine(text);
      if (line) lines.push(line);
      else {
        damaged++;
        if (salvageSigned(text.slice(0, 256), undefined)) damagedSigned++;
      }
    }
    return { lines, damaged, damagedSigned };
  }

  /** Appends a line with its `latest`, made under the ledger's lock from the lines before it. */
  private append(line: Omit<LedgerLine, "latest">): void {
    appendPrivateLine(
      this.file,
      () => {
        const latest = new Date(Math.max(this.latestSoFar(), Date.parse(line.at))).toISOString();
        // A line torn by a crash (kill -9 in a write, a power cut) is ended first, so that it cannot
        // swallow the line written after it.
        return `${this.endsTorn() ? "\n" : ""}${JSON.stringify({ ...line, latest })}`;
      },
      { what: WHAT },
    );
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
