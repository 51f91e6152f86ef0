import { quoteInline } from "../terminal/sanitize.js";

// Kept apart from the client so that code reading error bodies does not load the HTTP stack.

/** The server's own message from an error body of unknown shape: one line, cut (saying how much) when long. */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === "string") {
    const text = body.trim();
    if (!text || text.startsWith("<")) return undefined; // never dump an HTML page
    return quoteInline(text, 200);
  }
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  const candidates = [
    (b.error as Record<string, unknown> | undefined)?.message,
    b.error,
    b.message,
    b.detail,
    (b.data as Record<string, unknown> | undefined)?.message,
  ];
  for (const c of candidates) {
    if (typeof c === "string" && c.trim()) return quoteInline(c.trim(), 300);
  }
  return undefined;
}
