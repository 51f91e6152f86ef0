import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { dirname, join } from "node:path";
import { dataDir } from "../../../config/locations.js";
import { CliError } from "../../../errors.js";
import { withFileLock } from "../../../files/lock.js";
import { makePrivateDir, readPrivateFile, writePrivateFile } from "../../../files/private.js";
import { parseAmount } from "../../../payment/amounts.js";
import type { Holder } from "../../../payment/holders.js";

// The bearer tokens of `tokenintel mcp --http`, in one private file of the data folder (0600,
// written whole, changed under its lock): each token's name, the SHA-256 of the token (never the
// token itself), its caps, when it was made and last used. A token is 32 random bytes, base64url,
// after a prefix that says what it is; it is shown once, by `tokens add`, and found again only by
// its hash, compared in constant time.

export const TOKENS_FILE_NAME = "mcp-tokens.json";
/** What every token starts with: a reader of a log or a leaked file knows what it found. */
export const TOKEN_PREFIX = "ti_";
/** The most tokens the file holds. */
export const MAX_TOKENS = 256;
const MAX_FILE_BYTES = 256 * 1024;
const WHAT = "the MCP token file";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const HASH = /^[0-9a-f]{64}$/;
const TOKEN = /^ti_[A-Za-z0-9_-]{43}$/;
const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;
const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;

export interface StoredToken {
  name: string;
  /** SHA-256 of the token, hex. */
  hash: string;
  created: string;
  lastUsed?: string;
  /** USDC, as typed: on top of the server's own caps, when it pays. */
  dailyCap?: string;
  maxSpend?: string;
}

export function tokensFile(env: NodeJS.ProcessEnv): string {
  return join(dataDir(env), TOKENS_FILE_NAME);
}

/** A name a token may have; refused otherwise, with what a name may hold. */
export function checkName(name: string): string {
  if (!NAME.test(name))
    throw new CliError(
      `${JSON.stringify(name.slice(0, 80))} is not a token name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  return name;
}

/** A new token: 32 random bytes, base64url, after the prefix. */
export function mintToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The entry a presented token belongs to, or none: its hash is compared with every entry's, each in
 * constant time, and the loop never stops early.
 */
export function matchToken(tokens: readonly StoredToken[], presented: string): StoredToken | undefined {
  const given = Buffer.from(hashToken(presented), "hex");
  let found: StoredToken | undefined;
  for (const entry of tokens) if (timingSafeEqual(Buffer.from(entry.hash, "hex"), given)) found = entry;
  return found;
}

/** Whether a text has a token's shape (for a message; matching is matchToken's). */
export const looksLikeToken = (text: string): boolean => TOKEN.test(text);

/** The caps of a token as the payment session takes them (holders.ts). */
export function holderOf(entry: StoredToken): Holder {
  const usdc = (text: string) => parseAmount(`token ${entry.name}`, text, 6);
  return {
    name: entry.name,
    ...(entry.dailyCap
      ? { dailyCap: { atomic: usdc(entry.dailyCap), text: entry.dailyCap, source: `token ${entry.name}` } }
      : {}),
    ...(entry.maxSpend ? { maxSpend: { atomic: usdc(entry.maxSpend), text: entry.maxSpend } } : {}),
  };
}

/** One entry as read, or why it is not one. */
function readEntry(value: unknown): StoredToken | string {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "an entry is not an object";
  const e = value as Record<string, unknown>;
  const text = (key: string) => (Object.hasOwn(e, key) ? e[key] : undefined);
  const name = text("name");
  if (typeof name !== "string" || !NAME.test(name)) return "an entry has no valid name";
  const hash = text("hash");
  const created = text("created");
  const lastUsed = text("lastUsed");
  if (typeof hash !== "string" || !HASH.test(hash)) return `${name}: no valid hash`;
  if (typeof created !== "string" || !DATE.test(created)) return `${name}: no valid creation date`;
  if (lastUsed !== undefined && (typeof lastUsed !== "string" || !DATE.test(lastUsed)))
    return `${name}: lastUsed is not a date`;
  const entry: StoredToken = { name, hash, created, ...(lastUsed ? { lastUsed } : {}) };
  for (const key of ["dailyCap", "maxSpend"] as const) {
    const cap = text(key);
    if (cap === undefined) continue;
    if (typeof cap !== "string" || !AMOUNT.test(cap)) return `${name}: ${key} is not an amount`;
    entry[key] = cap;
  }
  return entry;
}

/** The file's entries: none when it is missing; a file that is not one tokenintel wrote is refused. */
export function readTokens(file: string): StoredToken[] {
  const read = readPrivateFile(file, WHAT, MAX_FILE_BYTES);
  if (read.state === "missing") return [];
  if (read.state !== "ok") throw new CliError(read.reason);
  const refuse = (why: string) =>
    new CliError(`${WHAT} ${file} cannot be read (${why}); mend it, or remove it and add the tokens again`);
  let doc: unknown;
  try {
    doc = JSON.parse(read.text);
  } catch {
    throw refuse("it is not JSON");
  }
  const list = (doc as { v?: unknown; tokens?: unknown } | null)?.tokens;
  if ((doc as { v?: unknown } | null)?.v !== 1 || !Array.isArray(list) || list.length > MAX_TOKENS)
    throw refuse(`not version 1 with at most ${MAX_TOKENS} tokens`);
  const tokens: StoredToken[] = [];
  for (const value of list) {
    const entry = readEntry(value);
    if (typeof entry === "string") throw refuse(entry);
    if (tokens.some((t) => t.name === entry.name)) throw refuse(`${entry.name} is there twice`);
    tokens.push(entry);
  }
  return tokens;
}

/** Changes the file under its lock: read, `change`, written whole; returns what `change` returned. */
export function changeTokens<T>(file: string, change: (tokens: StoredToken[]) => T): T {
  makePrivateDir(dirname(file), "the data folder");
  return withFileLock(
    file,
    () => {
      const tokens = readTokens(file);
      const result = change(tokens);
      writePrivateFile(file, `${JSON.stringify({ v: 1, tokens }, null, 2)}\n`, WHAT);
      return result;
    },
    { what: WHAT },
  );
}

/** Records when tokens were last used: only an entry that still holds the same hash is touched. */
export function touchTokens(file: string, used: ReadonlyMap<string, Date>): void {
  changeTokens(file, (tokens) => {
    for (const entry of tokens) {
      const at = used.get(entry.hash);
      if (at) entry.lastUsed = at.toISOString();
    }
  });
}
