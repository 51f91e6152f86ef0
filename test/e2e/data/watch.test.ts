import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { run } from "../../commands/harness.js";
import { useSandbox, useServers } from "../fixtures.js";
import { BIN, baseEnv } from "../helpers.js";
import { type HostileServer, sendJson } from "../hostile-server.js";
import { commandLine, launchPty } from "../terminal-session.js";

// --watch into a pipe (NDJSON lines, --count, --changes) and on a terminal of any size.

const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox();
const live = useSandbox({ liveSeconds: 1 });

const against = (server: { url: string; apiKey?: string }) => [
  "--base-url",
  server.url,
  "--api-key",
  server.apiKey ?? "watch-test-key",
];
const FIVE = ["market", "-c", "base", "-e", "virtuals", "--limit", "5"];
const sh = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

async function until(test: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!test()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every line of a stream, each parsed as JSON; the stream must end in a newline. */
function ndjson(stdout: string): Array<Record<string, unknown>> {
  expect(stdout.endsWith("\n")).toBe(true);
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("--watch into a pipe", () => {
  it("streams complete NDJSON snapshots until Ctrl-C, then exits 130 with the last line whole", async () => {
    const child = spawn(process.execPath, [BIN, ...against(live), ...FIVE, "--watch", "1s"], {
      env: baseEnv(dir.path),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await until(() => stdout.split("\n").length > 10, "two refreshes");
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toBe("");
    const records = ndjson(stdout);
    expect(records.length % 5).toBe(0);
    expect(records.length).toBeGreaterThanOrEqual(10);
    // Each refresh is the whole snapshot, in order, untouched (the live sandbox's numbers move).
    const expected = live.data
      .list("base", "virtuals")
      .slice(0, 5)
      .map((t) => t.id);
    for (let i = 0; i < records.length; i += 5)
      expect(records.slice(i, i + 5).map((r) => r.id)).toEqual(expected);
    expect(records[0]).toHaveProperty("token_metrics.usd_price");
  });

  it("--count 2 writes exactly two refreshes, each the one-shot NDJSON, and exits 0", async () => {
    const once = await run([...against(sandbox), ...FIVE, "--ndjson"], dir.path);
    expect(once.code).toBe(0);
    const r = await run([...against(sandbox), ...FIVE, "--watch", "1s", "--count", "2"], dir.path);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(once.stdout + once.stdout);
    expect(ndjson(r.stdout)).toHaveLength(10);
  });

  it("--changes writes only the records whose fields changed since the last refresh", async () => {
    // Refresh 1: A B C; refresh 2: B's price moves; refresh 3: C's volume moves, B stays.
    const record = (id: string, price: string, volume = "10") =>
      `{"id":"${id}","token_info":{"id":"${id}","symbol":"${id.toUpperCase()}","chain":"base"},"token_metrics":{"usd_price":${price},"volume_24h":"${volume}"}}`;
    const refreshes = [
      [record("a", "1.10"), record("b", "2.00000000000000000001"), record("c", "3")],
      [record("a", "1.10"), record("b", "2.00000000000000000002"), record("c", "3")],
      [record("a", "1.10"), record("b", "2.00000000000000000002"), record("c", "3", "11")],
    ];
    let firstPages = 0;
    const server: HostileServer = await servers.stub((req, res) => {
      const page = new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1";
      const data = page === "1" ? refreshes[Math.min(firstPages++, 2)]! : [];
      sendJson(
        res,
        `{"success":true,"data":[${data.join(",")}],"meta":{"pagination":{"page":${page},"pageSize":30,"pageCount":1,"total":3}}}`,
      );
    });
    {
      const args = [...against(server), "market", "-c", "base", "--watch", "1s", "--count", "3"];
      const r = await run([...args, "--changes"], dir.path);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      // Every line is a record exactly as the server sent it (the 21-digit price kept whole).
      expect(r.stdout).toBe([...refreshes[0]!, refreshes[1]![1], refreshes[2]![2], ""].join("\n"));
      // --fields narrows what counts as a change: C's volume is not among them.
      firstPages = 0;
      const narrowed = await run([...args, "--changes", "--fields", "id,token_metrics.usd_price"], dir.path);
      expect(narrowed.code).toBe(0);
      expect(ndjson(narrowed.stdout)).toEqual([
        { id: "a", token_metrics: { usd_price: 1.1 } },
        { id: "b", token_metrics: { usd_price: 2 } },
        { id: "c", token_metrics: { usd_price: 3 } },
        { id: "b", token_metrics: { usd_price: 2 } },
      ]);
      expect(narrowed.stdout.split("\n")[3]).toBe(
        '{"id":"b","token_metrics":{"usd_price":2.00000000000000000002}}',
      );
    }
  });

  it("still keeps to the quota, and refuses what a pipe cannot take", async () => {
    const slowed = await run(
      [...against(sandbox), "--rate", "60/min", ...FIVE, "--limit", "90", "--watch", "1s", "--count", "1"],
      dir.path,
    );
    expect(slowed.code).toBe(0);
    expect(slowed.stderr).toBe("tokenintel: watch (slowed to 3s: 3 requests a refresh, 60/min)\n");
    expect(ndjson(slowed.stdout)).toHaveLength(90);
    for (const [args, message] of [
      [
        ["--watch", "-o", "csv"],
        /^tokenintel: --watch into a pipe writes NDJSON lines; drop --output csv or use --ndjson\n$/,
      ],
      [["--count", "2"], /^tokenintel: --count needs --watch\n$/],
      [["--changes"], /^tokenintel: --changes needs --watch\n$/],
      [["--watch", "--count", "0"], /--count/],
    ] as Array<[string[], RegExp]>) {
      const r = await run([...against(sandbox), ...FIVE, ...args], dir.path);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });
});

/** The binary in a real pseudo-terminal (util-linux `script`), after `setup` ran in it. */
function inPty(setup: string, args: string[]) {
  return launchPty(`${setup}; ${commandLine([...against(sandbox), ...args])}`, {
    ...baseEnv(dir.path),
    TERM: "xterm-256color",
    COLUMNS: "",
    LINES: "",
  });
}

/** The frames drawn so far (each after a home-and-clear), as lines without colour. */
function frames(screen: string): string[][] {
  return screen
    .split("\x1b[H\x1b[2J")
    .slice(1)
    .map((frame) => stripVTControlCharacters(frame).split(/\r?\n/));
}

const THIRTY = ["market", "-c", "base", "-e", "virtuals", "--limit", "30", "--columns", "token_info.symbol"];

describe("--watch on a terminal fits it", () => {
  it("keeps the status line and the column headers on a short terminal, clipping rows with … N more", async () => {
    const s = inPty("stty rows 12 cols 100", [...THIRTY, "--watch", "1s"]);
    await until(
      () => frames(s.screen()).filter((f) => f.some((l) => l.startsWith("…"))).length >= 2,
      "two frames",
    );
    s.child.stdin.write("\x03");
    expect(await s.exited).toBe(130);
    const [frame] = frames(s.screen()).filter((f) => f.some((l) => l.startsWith("…")));
    // 12 lines: status, blank, headers, 8 tokens, "… 22 more"; no newline after the last (no scroll).
    expect(frame).toHaveLength(12);
    expect(frame![0]).toMatch(/^Every 1s · .* · \d+ changed · tokenintel /);
    expect(frame![1]).toBe("");
    expect(frame![2]!.trimEnd()).toBe("SYMBOL");
    const symbols = sandbox.data
      .list("base", "virtuals")
      .slice(0, 8)
      .map((t) => t.symbol);
    expect(frame!.slice(3, 11)).toEqual(symbols);
    expect(frame![11]).toBe("… 22 more");
  });

  it("re-fits when the terminal is resized (SIGWINCH), without waiting for the next refresh", async () => {
    const flag = join(dir.path, "resize-now");
    // In the pty: start at 12 rows; when the test says so, grow it to 20 (stty sends SIGWINCH).
    const setup = `stty rows 12 cols 100; (while [ ! -e ${sh(flag)} ]; do sleep 0.05; done; stty rows 20 cols 100 </dev/tty) & true`;
    const s = inPty(setup, [...THIRTY, "--watch", "60s"]);
    const fitted = (more: number) => () =>
      frames(s.screen()).some((f) => f[f.length - 1] === `… ${more} more` && f.length === 34 - more);
    await until(fitted(22), "the frame for 12 rows").catch((e) => {
      throw new Error(`${e}: ${JSON.stringify(s.screen().slice(-1500))}`);
    });
    writeFileSync(flag, "");
    await until(fitted(14), "the frame for 20 rows");
    const last = frames(s.screen()).at(-1)!;
    expect(last[0]).toMatch(/^Every 60s · /);
    expect(last[2]!.trimEnd()).toBe("SYMBOL");
    expect(last).toHaveLength(20);
    s.child.stdin.write("\x03");
    expect(await s.exited).toBe(130);
  });

  it("--count ends a terminal watch with exit 0, the last table left on the normal screen; --ndjson streams there", async () => {
    const table = inPty("stty rows 12 cols 100", [...THIRTY, "--watch", "1s", "--count", "1"]);
    expect(await table.exited).toBe(0);
    const after = stripVTControlCharacters(table.screen().split("\x1b[?1049l")[1]!);
    expect(after.split(/\r?\n/).slice(0, 3)).toEqual([
      expect.stringMatching(/^Every 1s · /),
      "",
      expect.stringMatching(/^SYMBOL *$/),
    ]);
    expect(after).not.toContain("more"); // the whole table, not the fitted frame
    const lines = inPty("stty rows 12 cols 100", [...FIVE, "--watch", "1s", "--count", "1", "--ndjson"]);
    expect(await lines.exited).toBe(0);
    expect(lines.screen()).not.toContain("\x1b[?1049h");
    expect(ndjson(lines.screen().replace(/\r\n/g, "\n"))).toHaveLength(5);
  });
});
