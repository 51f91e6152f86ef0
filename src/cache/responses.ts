import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { cacheDir } from "../config/locations.js";
import { makePrivateDir, readPrivateFile, writePrivateFile } from "../files/private.js";
import { redactSecrets, secretForms } from "../terminal/secrets.js";

// Answers to GET requests kept on disk for --cache <ttl>. An entry is one file named by a digest of
// what was asked (origin, method, path and query without the key) and of whose key asked it (a
// digest of the key, never the key). It holds the status, the content type and the body text: no
// key, no payment header, and a body that echoes the key has it masked (***) as output does. Files
// are private-file module files (0600 in a 0700 folder of the user's own, written whole); an entry
// that is not ours, not private, too large, corrupt or past the TTL is never trusted. A cache that
// cannot be written (a read-only folder, a full disk) says so once on stderr and the run goes on.

/** The folder of the response cache (what `tokenintel cache path` prints). */
export function responseCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), "responses");
}

/** node:crypto when a cache is used, not at every start (loading it costs ~3 ms). */
const crypto = () => process.getBuiltinModule("node:crypto");
const ENTRY_NAME = /^[0-9a-f]{64}\.json$/;
/** Temporary files: the private-file module's (`.<entry>.<random>.tmp`), and this module's old ones. */
const TEMP_NAME = /^\.(?:tmp-[0-9a-f]{16}|[0-9a-f]{64}\.json\.[0-9a-f]{16}\.tmp)$/;
/** Room for the envelope around the body (status, content type, request line, JSON quoting). */
const ENVELOPE_BYTES = 64 * 1024;
const FORMAT = 1;

/** What a cached answer replays. */
export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** How long ago it was stored, in milliseconds. */
  ageMs: number;
}

export interface CacheRequest {
  /** Where the request went: the API's origin ("sandbox" for the local sandbox). */
  origin: string;
  method: string;
  /** Path and query, without the key. */
  target: string;
  /** The key the request carried, if any: only a digest of it is used. */
  apiKey: string | undefined;
}

/** A short digest of the key that keeps entries apart per key; "" without a key. */
export function keyScope(apiKey: string | undefined): string {
  return apiKey
    ? crypto().createHash("sha256").update(`tokenintel cache\n${apiKey}`).digest("hex").slice(0, 16)
    : "";
}

/** The entry's file name: a digest of everything that makes two requests the same. */
export function entryName(req: CacheRequest): string {
  const id = [FORMAT, req.origin, req.method.toUpperCase(), req.target, keyScope(req.apiKey)].join("\n");
  return `${crypto().createHash("sha256").update(id).digest("hex")}.json`;
}

interface StoredEntry {
  format: number;
  storedAt: number;
  request: string;
  status: number;
  contentType?: string;
  text: string;
}

export interface ResponseCacheOptions {
  dir: string;
  /** How long an entry answers; 0: the cache is neither read nor written. */
  ttlMs: number;
  /** The largest body stored (the run's --max-body). */
  maxBodyBytes: number;
  now?: () => number;
  uid?: number | undefined;
  /** Told once, in one line, when answers cannot be cached (the folder or a write failed). */
  onProblem?: (message: string) => void;
}

export class ResponseCache {
  readonly dir: string;
  readonly ttlMs: number;
  private readonly maxBodyBytes: number;
  private readonly now: () => number;
  private readonly uid: number | undefined;
  private readonly onProblem: (message: string) => void;
  private told = false;
  /** Whether the folder was made (or found) private and ours; undefined until first needed. */
  private usable: boolean | undefined;
  private swept = false;
  /** Answers this run took from the cache (counted by the client when it uses one). */
  hits = 0;

  constructor(options: ResponseCacheOptions) {
    this.dir = options.dir;
    this.ttlMs = options.ttlMs;
    this.maxBodyBytes = options.maxBodyBytes;
    this.now = options.now ?? Date.now;
    this.uid = "uid" in options ? options.uid : process.getuid?.();
    this.onProblem = options.onProblem ?? (() => {});
  }

  /** Says once why answers are not cached; the run goes on without the cache. */
  private problem(error: unknown): void {
    if (this.told) return;
    this.told = true;
    const why = error instanceof Error ? error.message : String(error);
    this.onProblem(`--cache: answers are not being cached: ${why}`);
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The stored answer to this request, if one is fresh and trustworthy. */
  get(req: CacheRequest): CachedAnswer | undefined {
    if (!this.enabled || !this.folderUsable(false)) return undefined;
    const path = join(this.dir, entryName(req));
    const entry = this.read(path);
    if (!entry) return undefined;
    const age = this.now() - entry.storedAt;
    if (entry.request !== requestLine(req) || age < 0 || age >= this.ttlMs) {
      if (age >= this.ttlMs) removeQuietly(path);
      return undefined;
    }
    return {
      status: entry.status,
      headers: entry.contentType ? { "content-type": entry.contentType } : {},
      text: entry.text,
      ageMs: age,
    };
  }

  /** Stores a 2xx answer; never one larger than the body cap. Failing to store is not an error. */
  put(req: CacheRequest, answer: { status: number; headers: Record<string, unknown>; text: string }): void {
    if (!this.enabled || answer.status < 200 || answer.status >= 300) return;
    if (Buffer.byteLength(answer.text) > this.maxBodyBytes) return;
    if (!this.folderUsable(true)) return;
    this.sweep();
    const contentType = answer.headers["content-type"];
    const entry: StoredEntry = {
      format: FORMAT,
      storedAt: this.now(),
      request: requestLine(req),
      status: answer.status,
      ...(typeof contentType === "string" ? { contentType: contentType.slice(0, 200) } : {}),
      // A body that echoes the key is kept with the key masked, as output shows it.
      text: req.apiKey ? redactSecrets(answer.text, [secretForms(req.apiKey)]) : answer.text,
    };
    try {
      writePrivateFile(join(this.dir, entryName(req)), JSON.stringify(entry), "a cached answer");
    } catch (error) {
      this.problem(error);
    }
  }

  /** Removes every entry (and leftover temp file); returns how many entries were removed. */
  clear(): number {
    let removed = 0;
    for (const name of this.names()) {
      if (!ENTRY_NAME.test(name) && !TEMP_NAME.test(name)) continue;
      if (removeQuietly(join(this.dir, name)) && ENTRY_NAME.test(name)) removed++;
    }
    return removed;
  }

  private names(): string[] {
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
    }
  }

  /** Once a run, before its first write: entries older than this run's TTL go. */
  private sweep(): void {
    if (this.swept) return;
    this.swept = true;
    const now = this.now();
    for (const name of this.names()) {
      if (!ENTRY_NAME.test(name) && !TEMP_NAME.test(name)) continue;
      const path = join(this.dir, name);
      try {
        const stat = lstatSync(path);
        if (stat.isFile() && now - stat.mtimeMs >= this.ttlMs && stat.uid === (this.uid ?? stat.uid))
          unlinkSync(path);
      } catch {
        // gone already, or not ours to remove
      }
    }
  }

  /** The folder, private and ours; made (0700, with its parents) when `create`. */
  private folderUsable(create: boolean): boolean {
    if (this.usable !== undefined) return this.usable;
    try {
      makePrivateDir(this.dir, "the response cache folder", { uid: this.uid });
      this.usable = true;
    } catch (error) {
      // A folder that does not exist yet holds nothing to read; try again when writing.
      if (create) {
        this.usable = false;
        this.problem(error);
      }
      return false;
    }
    return true;
  }

  /** An entry's content, or undefined when it is missing, not ours, not private, too large or corrupt. */
  private read(path: string): StoredEntry | undefined {
    const limit = this.maxBodyBytes * 6 + ENVELOPE_BYTES; // a body escaped in JSON grows at most 6-fold
    const read = readPrivateFile(path, "a cached answer", limit, { uid: this.uid });
    return read.state === "ok" ? parseEntry(read.text, this.maxBodyBytes) : undefined;
  }
}

/** What the entry says it answers, checked on reading (a digest collision or a swapped file). */
function requestLine(req: CacheRequest): string {
  return `${req.method.toUpperCase()} ${req.origin}${req.target}`;
}

function parseEntry(text: string, maxBodyBytes: number): StoredEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const e = value as Record<string, unknown>;
  if (
    e.format !== FORMAT ||
    typeof e.storedAt !== "number" ||
    !Number.isFinite(e.storedAt) ||
    typeof e.request !== "string" ||
    typeof e.status !== "number" ||
    !Number.isInteger(e.status) ||
    e.status < 200 ||
    e.status > 299 ||
    typeof e.text !== "string" ||
    Buffer.byteLength(e.text) > maxBodyBytes ||
    (e.contentType !== undefined && typeof e.contentType !== "string")
  )
    return undefined;
  return e as unknown as StoredEntry;
}

function removeQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
