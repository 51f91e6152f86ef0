import { STATUS_CODES } from "node:http";
import { sanitizeInline } from "../../terminal/sanitize.js";

/** The longest reason phrase shown; a longer one is cut (server bytes are untrusted). */
const MAX_REASON = 64;

/**
 * `api --include`'s first line, as curl -i shows it: "HTTP/1.1 404 Not Found". The reason phrase is
 * the server's when it sent one, made inert (escape sequences and anything outside printable
 * ASCII dropped, cut to 64 characters); otherwise (none sent, an answer from the cache) the
 * standard phrase for the status.
 */
export function statusLine(status: number, reason: string | undefined): string {
  const sent = sanitizeInline(reason ?? "")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/ +/g, " ")
    .trim();
  const shown = sent.length > MAX_REASON ? `${sent.slice(0, MAX_REASON)}…` : sent;
  const phrase = shown || STATUS_CODES[status] || "";
  return `HTTP/1.1 ${status}${phrase ? ` ${phrase}` : ""}`;
}
