import { createHash } from "node:crypto";
import { formatUnits } from "./amounts.js";

// The payment ledger's lines: what is written when an authorization is signed (before the request
// that carries it is sent) and when its answer comes, and how a line read back is checked. Pure:
// no files here (ledger.ts writes and reads them).

/** Version of the line format, on every line: a later tokenintel can read an older ledger. */
export const LEDGER_FORMAT = 1;

/** Written before the request carrying the authorization is sent. Never holds the signature. */
export interface SignedLine {
  v: typeof LEDGER_FORMAT;
  kind: "signed";
  /** When it was appended (ISO 8601, UTC). */
  at: string;
  /** The command line, secrets masked. */
  command: string;
  /** The URL the payment was sent to (no key: a paid request carries none). */
  endpoint: string;
  /** What the request was for ("page 3"), when the command says. */
  label?: string;
  /** tokenintel's name of the network (base, polygon, base-sepolia) and the offer's own id for it. */
  network: string;
  networkId: string;
  /** The token contract and its symbol. */
  asset: string;
  symbol: string;
  /** The value signed: a decimal string with every decimal of the asset ("0.005000"), and atomic units. */
  amount: string;
  atomic: string;
  payTo: string;
  from: string;
  nonce: string;
  /** The validity window, as signed: unix seconds, decimal strings. */
  validAfter: string;
  validBefore: string;
  x402Version: number;
  /** Who the payment was made for, when the session pays for several (mcp --http: a token's name). */
  holder?: string;
  /**
   * The latest `at` of this line and of every line before it in the file (ISO 8601, UTC), on every
   * line this tokenintel writes (an older one wrote none). A line dated before one written ahead of
   * it (a clock set back) was written no earlier than that one; `latest` carries that forward, so a
   * reader going back from the end knows, at any line, that no line before it is dated later.
   */
  latest?: string;
}

export type Outcome = "settled" | "refused" | "unknown";

/** Written when the answer to a paid request comes (or the run ends without one). */
export interface OutcomeLine {
  v: typeof LEDGER_FORMAT;
  kind: "outcome";
  at: string;
  nonce: string;
  outcome: Outcome;
  /** From the server's settlement header, when it sent one it could be read from. */
  transaction?: string;
  payer?: string;
  /** Why it was refused, or why the outcome is unknown (bounded, printable). */
  reason?: string;
  /** As a signed line's. */
  latest?: string;
}

export type LedgerLine = SignedLine | OutcomeLine;

/** "5000" in 6 decimals → "0.005000": exact, every decimal written. */
export function fixedAmount(atomic: bigint, decimals: number): string {
  const text = formatUnits(atomic.toString(), decimals);
  const [whole, frac = ""] = text.split(".");
  return decimals > 0 ? `${whole}.${frac.padEnd(decimals, "0")}` : whole!;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * A transaction reference from a server's settlement header: kept only when it is a 32-byte hex
 * hash (EVM) or a short base58 signature; anything else a server sends is not written down.
 */
export function readTransaction(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (HASH.test(value) || /^[1-9A-HJ-NP-Za-km-z]{32,90}$/.test(value)) return value;
  return undefined;
}

export function readAddress(value: unknown): string | undefined {
  return typeof value === "string" && ADDRESS.test(value) ? value : undefined;
}

/** A reason from a server, made safe to keep: printable ASCII, at most 200 characters. */
export function boundedReason(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const clean = text.replace(/[^\x20-\x7e]/g, "?").slice(0, 200);
  return clean || undefined;
}

/**
 * The longest a free-text field of a line is kept (the command line, the endpoint, the label): a
 * longer one is cut, and the cut named with the whole text's length and hash, by the writer before
 * it writes and by the reader of an older ledger that kept the whole text. So every line is short
 * enough for the reader, which drops no line for being long.
 */
export const MAX_FIELD_CHARS = 1024;
const FREE_TEXT = ["command", "endpoint", "label", "holder"] as const;

/** A field cut to MAX_FIELD_CHARS: its start, then "… (N characters, sha256 0123456789abcdef)". */
export function boundField(text: string): string {
  if (text.length <= MAX_FIELD_CHARS) return text;
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const tail = `… (${text.length} characters, sha256 ${hash})`;
  return `${text.slice(0, MAX_FIELD_CHARS - tail.length)}${tail}`;
}

/** A signed line as written: its free-text fields bounded. */
export function boundedSignedLine<T extends Partial<Pick<SignedLine, (typeof FREE_TEXT)[number]>>>(
  line: T,
): T {
  const out = { ...line };
  for (const k of FREE_TEXT) if (typeof out[k] === "string") out[k] = boundField(out[k]) as T[typeof k];
  return out;
}

const DIGITS = /^\d{1,78}$/;
const isText = (value: unknown): value is string => typeof value === "string" && value.length <= 4096;
const isFreeText = (value: unknown): value is string => typeof value === "string";

/** A line read back, checked field by field; undefined when it is not one tokenintel writes. */
export function parseLedgerLine(text: string): LedgerLine | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return undefined;
  const d = doc as Record<string, unknown>;
  if (d.v !== LEDGER_FORMAT || !isText(d.at) || Number.isNaN(Date.parse(d.at)) || !isText(d.nonce))
    return undefined;
  if (d.kind === "signed") {
    const texts = ["network", "networkId", "asset", "symbol", "amount", "payTo", "from"];
    if (!texts.every((key) => isText(d[key])) || !isFreeText(d.command) || !isFreeText(d.endpoint))
      return undefined;
    if (
      ![d.atomic, d.validAfter, d.validBefore].every(
        (value) => typeof value === "string" && DIGITS.test(value),
      )
    )
      return undefined;
    if (typeof d.x402Version !== "number" || (d.label !== undefined && !isFreeText(d.label)))
      return undefined;
    if (d.holder !== undefined && !isText(d.holder)) return undefined;
    return boundedSignedLine(d) as unknown as SignedLine;
  }
  if (d.kind === "outcome") {
    if (d.outcome !== "settled" && d.outcome !== "refused" && d.outcome !== "unknown") return undefined;
    for (const k of ["transaction", "payer", "reason"])
      if (d[k] !== undefined && !isText(d[k])) return undefined;
    return d as unknown as OutcomeLine;
  }
  return undefined;
}

/** What is left of a line that cannot be read whole but says it is a signed payment. */
export interface DamagedSigned {
  /** When it says it was signed; NaN when that cannot be read. */
  atMs: number;
  /** Its amount in atomic units; undefined when that cannot be read. */
  atomic: bigint | undefined;
  /** Who it was made for, when it can be read (a line cut short may have lost it). */
  holder: string | undefined;
}

/**
 * A damaged line (torn by a crash, edited, cut): if its first bytes say it is a signed payment, what
 * can still be read of its date and amount; undefined for any other line. `head` is the line's
 * start, `text` the whole line when it was read (a line past the reader's bound is not).
 */
export function salvageSigned(head: string, text: string | undefined): DamagedSigned | undefined {
  if (!/"kind"\s*:\s*"signed"/.test(head)) return undefined;
  const at = /"at"\s*:\s*"([^"]{1,64})"/.exec(head);
  const atomic = text === undefined ? null : /"atomic"\s*:\s*"(\d{1,78})"/.exec(text);
  return {
    atMs: at ? Date.parse(at[1]!) : Number.NaN,
    atomic: atomic ? BigInt(atomic[1]!) : undefined,
    holder: text === undefined ? undefined : /"holder"\s*:\s*"([^"\\]{1,1024})"/.exec(text)?.[1],
  };
}
