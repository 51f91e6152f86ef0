import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useServers } from "./fixtures.js";
import { BIN, baseEnv, run } from "./helpers.js";

// `tokenintel mcp` answers its client's `initialize` before the program and the SDK have loaded
// (src/commands/mcp/early.ts), then hands the session to the SDK's server. The answer must be the
// SDK's own, sent once; everything the client wrote must reach the SDK.

const servers = useServers();
const frame = (message: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
const initialize = (id: number | string, protocolVersion = "2025-06-18") =>
  frame({
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "1" } },
  });
const lines = (out: string) =>
  out
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id?: number | string; result?: Record<string, unknown>; error?: unknown });

async function mcp(input: string, extra: string[] = []) {
  const folder = servers.folder();
  return run(["mcp", "--sandbox", ...extra], folder, { input });
}

describe("tokenintel mcp: the early answer to initialize", () => {
  it("is the SDK server's own answer, byte for byte, for each protocol version", async () => {
    for (const version of ["2025-06-18", "2024-11-05", "1999-01-01"]) {
      // First line initialize: answered early. A ping first: the SDK answers everything.
      const early = await mcp(initialize(7, version));
      const sdk = await mcp(frame({ id: 0, method: "ping" }) + initialize(7, version));
      expect(early.code).toBe(0);
      expect(sdk.code).toBe(0);
      const earlyLine = early.stdout.split("\n")[0];
      const sdkLine = sdk.stdout.split("\n").find((l) => l.includes('"id":7'));
      expect(earlyLine).toBe(sdkLine);
      expect(lines(early.stdout)).toHaveLength(1);
      expect(early.stderr).not.toMatch(/differs/);
    }
    const unknown = lines((await mcp(initialize(1, "1999-01-01"))).stdout)[0]!;
    const record = JSON.parse(readFileSync(join(BIN, "..", "..", "dist", "mcp-initialize.json"), "utf8"));
    expect(unknown.result!.protocolVersion).toBe(record.latest);
  });

  it.each([
    ["mcp --sandbox"],
    ["--timeout 30 --sandbox mcp"], // global flags, one with a value, before the command
  ])(
    "comes before the server is up, and the server then answers what followed it in the same write: %s",
    async (line) => {
      // stdout and stderr into one pipe keep the order in which they were written.
      const folder = servers.folder();
      const out = join(folder, "out.txt");
      const fd = openSync(out, "w");
      const child = spawn(process.execPath, [BIN, ...line.split(" ")], {
        env: baseEnv(folder),
        stdio: ["pipe", fd, fd],
      });
      child.stdin!.end(
        initialize("a") +
          frame({ method: "notifications/initialized" }) +
          frame({ id: "b", method: "tools/list" }),
      );
      const code = await new Promise((resolve) => child.on("exit", resolve));
      closeSync(fd);
      const text = readFileSync(out, "utf8");
      rmSync(out);
      expect(code).toBe(0);
      const first = text.indexOf('"id":"a"');
      const serving = text.indexOf("tokenintel mcp: serving");
      expect(first).toBeGreaterThanOrEqual(0);
      expect(first).toBeLessThan(serving);
      const answers = text
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l));
      expect(answers.map((a) => a.id)).toEqual(["a", "b"]);
      expect(answers[1].result.tools.length).toBe(7);
    },
  );

  it("leaves anything but a well-formed initialize to the SDK", async () => {
    // No clientInfo: the SDK answers with its error, once.
    const bad = await mcp(
      frame({ id: 3, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {} } }),
    );
    const answers = lines(bad.stdout);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ id: 3, error: expect.anything() });
    // Not JSON: the SDK's parse error, and the server ends with its client.
    const garbage = await mcp("not json\n");
    expect(garbage.code).toBe(0);
    expect(garbage.stdout).not.toContain('"result"');
  });

  it("still checks the flags: a bad one ends the server with one line and exit 2", async () => {
    const r = await mcp(initialize(1), ["--max-spend", "abc"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'tokenintel: --max-spend: expected an amount such as 0.01 (at most 6 decimals), got "abc"',
    );
  });

  it("ends with its client: stdin closed right after initialize, or with half a line", async () => {
    const closed = await mcp(initialize(1));
    expect(closed.code).toBe(0);
    expect(lines(closed.stdout)).toHaveLength(1);
    const half = await mcp(initialize(1).trimEnd());
    expect(half.code).toBe(0);
    expect(half.stdout).toBe("");
  });
});
