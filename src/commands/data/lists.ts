import type { RunContext } from "../../context.js";
import { MAX_ITEM_LENGTH } from "../../contract/limits.js";
import { UsageError } from "../../errors.js";

// Selector lists (--tickers, --addresses, --ids) from a file (@path) or standard input (- or @-):
// the flag parser only splits what was typed, so reading is done here, once, before any request.
// Every command that takes a list reads it here. In an MCP tool call (io.readsLocal off) an item
// that would name a source is refused, in words that say nothing of what exists on the machine.

/** The most a list file (or standard input) may hold: ~100,000 tickers is far past any real list. */
export const MAX_LIST_BYTES = 4 * 1024 * 1024;

/** Whether an item of a list flag names a source to read rather than an item. */
export function isListSource(item: string): boolean {
  return item === "-" || (item.startsWith("@") && item.length > 1);
}

/** The refusal of a source in a tool call: the item is the agent's own text, so it may be named. */
function sourceRefused(flag: string): UsageError {
  return new UsageError(
    `${flag.replace(/^--/, "")}: an item may not start with "@" or be "-": a tool takes the items themselves, never a file or standard input`,
  );
}

/**
 * Items from a file's text: one a line or comma-separated (`\,` for a comma inside an item), blank
 * lines, surrounding spaces and a trailing comma ignored.
 */
export function itemsFromText(flag: string, where: string, text: string): string[] {
  const items: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, "").split(/(?<!\\),|\r?\n|\r/)) {
    const item = raw.replace(/\\,/g, ",").trim();
    if (!item) continue;
    if (Array.from(item).length > MAX_ITEM_LENGTH)
      throw new UsageError(`${flag}: an item in ${where} is longer than ${MAX_ITEM_LENGTH} characters`);
    items.push(item);
  }
  return items;
}

/**
 * A ticker may be written as the provider writes it in questions: `$AIXBT` is `AIXBT`. One `$` is
 * dropped, so a ticker that really starts with one is written `$$DOLLAR`.
 */
export function dropDollar(item: string): string {
  return item.startsWith("$") && item.length > 1 ? item.slice(1) : item;
}

/**
 * Replaces every `@path` and `-` in a list with the items they hold, keeping the order and
 * dropping repeats; tickers lose a leading `$`.
 */
export async function expandList(
  ctx: RunContext,
  flag: string,
  items: readonly string[],
  tickers: boolean,
): Promise<string[]> {
  const out: string[] = [];
  let stdinRead = false;
  for (const item of items) {
    if (!isListSource(item)) {
      out.push(item);
      continue;
    }
    if (!ctx.io.readsLocal) throw sourceRefused(flag);
    let text: string;
    let where: string;
    if (item === "-" || item === "@-") {
      if (stdinRead) throw new UsageError(`${flag}: standard input (-) can be read only once`);
      stdinRead = true;
      where = "standard input";
      text = await ctx.io.readInput(`${flag} -`);
    } else {
      const path = item.slice(1);
      where = path;
      text = await readListFile(flag, path);
    }
    if (Buffer.byteLength(text) > MAX_LIST_BYTES)
      throw new UsageError(`${flag}: ${where} is larger than ${MAX_LIST_BYTES / 1024 / 1024} MiB`);
    const read = itemsFromText(flag, where, text);
    if (read.length === 0) throw new UsageError(`${flag}: ${where} holds no items`);
    out.push(...read);
  }
  const cleaned = tickers ? out.map(dropDollar) : out;
  return [...new Set(cleaned)];
}

async function readListFile(flag: string, path: string): Promise<string> {
  // Loaded here, not at the top: every data command loads this module, few read a list from a file
  // (node:fs/promises brings its stream modules, ~1 ms of start-up).
  const { readFile, stat } = await import("node:fs/promises");
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`${flag}: cannot read @${path}: not a file`);
    if (info.size > MAX_LIST_BYTES)
      throw new UsageError(`${flag}: @${path} is larger than ${MAX_LIST_BYTES / 1024 / 1024} MiB`);
    return await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const { describeFsError } = await import("../../files/errors.js");
    throw new UsageError(`${flag}: cannot read @${path}: ${describeFsError(error)}`);
  }
}
