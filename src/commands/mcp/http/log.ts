import type { IO } from "../../../io.js";
import type { CallRecord } from "../toolset.js";

// One JSON line on stderr per tool call, and per request refused: when, which token (its name), the
// tool, the status, how long, what it paid. Never a token, a key or an argument's value: the tool
// and the token's name are the server's own words, and the line passes the run's redaction too.

export type LogLine = Partial<Omit<CallRecord, "status">> & { status: CallRecord["status"] | number };

export function logLine(io: IO, line: LogLine): void {
  const { token, tool, status, ms, cost } = line;
  io.err(
    JSON.stringify({
      time: new Date().toISOString(),
      token: token ?? null,
      ...(tool !== undefined ? { tool } : {}),
      status,
      ...(ms !== undefined ? { ms } : {}),
      ...(cost !== undefined ? { cost } : {}),
    }),
  );
}
