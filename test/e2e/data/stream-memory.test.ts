import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useServers } from "../fixtures.js";
import { BIN, baseEnv } from "../helpers.js";
import type { HostileServer } from "../hostile-server.js";

// A stream's memory does not grow with its length. A server serves 3,000 directory pages
// of 100 records, each page repeating the last record of the one before (as the live service
// repeats a few ids): the client streams 300,000 records as NDJSON with its old generation capped
// at 24 MB. Keeping every id in a Set<string> (~130 bytes a record) ran out of memory at ~260,000;
// the compact id set keeps the run inside the cap, and every repeat is still dropped, exactly.
// V8's young generation stays at its starting size (the shim sets its growth factor to 1 before the
// program runs): a stream keeps almost nothing, and a young generation doubled as bytes survive its
// collections cost 7-12 MB of peak memory in a 100,000-record stream.

const PAGES = 3000;
const SIZE = 100;
const idOf = (page: number, i: number) =>
  `${page.toString(16).padStart(8, "0")}${i.toString(16).padStart(4, "0")}b45e`;
const servers = useServers();
let server: HostileServer;
const dir = { path: servers.folder() };

beforeAll(async () => {
  server = await servers.stub((req, res) => {
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
    const records: string[] = [];
    if (page > 1) records.push(`{"id":"${idOf(page - 1, SIZE - 2)}","symbol":"R"}`);
    for (let i = page > 1 ? 1 : 0; i < SIZE; i++)
      records.push(`{"id":"${idOf(page, i - (page > 1 ? 1 : 0))}","symbol":"S"}`);
    res.setHeader("content-type", "application/json");
    res.end(
      `{"success":true,"data":[${records.join(",")}],"meta":{"pagination":{"page":${page},"pageSize":${SIZE},"pageCount":${PAGES},"total":${PAGES * SIZE}}}}`,
    );
  });
});

describe("a long NDJSON stream", () => {
  it("holds its memory: 300,000 records with a 24 MB old generation and a young generation that does not grow, every repeat dropped", async () => {
    // The young generation's size when the run starts and when it ends, from a preloaded module.
    const sizes = join(dir.path, "new-space.json");
    const preload = join(dir.path, "new-space.cjs");
    writeFileSync(
      preload,
      `const size = () => require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
const start = size();
process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(sizes)}, JSON.stringify({ start, end: size() })));\n`,
    );
    const child = spawn(
      process.execPath,
      [
        "--max-old-space-size=24",
        "--require",
        preload,
        BIN,
        "--base-url",
        server.url,
        "--api-key",
        "k",
        "directory",
        "-c",
        "base",
        "--ndjson",
        "--max-pages",
        "5000",
      ],
      { env: baseEnv(dir.path), stdio: ["ignore", "pipe", "pipe"] },
    );
    let lines = 0;
    let tail = "";
    const ids = new Set<string>();
    let dupes = 0;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      const text = tail + d;
      const parts = text.split("\n");
      tail = parts.pop()!;
      for (const line of parts) {
        lines++;
        const id = line.slice(7, 23);
        if (ids.has(id)) dupes++;
        ids.add(id);
      }
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr.slice(0, 500)).not.toMatch(/heap|memory/i);
    expect(code, stderr.slice(0, 500)).toBe(0);
    // Page 1 has 100 records; every later page 99 new ones and the repeat, which is dropped.
    expect(lines).toBe(SIZE + (PAGES - 1) * (SIZE - 1));
    expect(dupes).toBe(0);
    // 2 MB at most, one step up from where it starts (1 MB on Node 20 to 24, 512 KB on 26, read
    // before the shim sets the flag); 4 MB and more without the flag (32 MB on Node 20).
    const { start, end } = JSON.parse(readFileSync(sizes, "utf8")) as { start: number; end: number };
    expect(end).toBeLessThanOrEqual(Math.max(2 * start, 2 * 1024 * 1024));
  }, 120_000);
});
