import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { run } from "../commands/harness.js";
import { useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";
import type { HostileServer } from "./hostile-server.js";

// Input and answers that must neither run away nor crash: endless standard input, a rate too
// slow for a timer, a Location that is not a URL.

const servers = useServers();
const dir = { path: servers.folder() };

describe("standard input", () => {
  it("is read up to 4 MiB: `yes | tokenintel market --tickers -` ends at once with one line, exit 2", async () => {
    const child = spawn(process.execPath, [BIN, "market", "--sandbox", "-c", "base", "--tickers", "-"], {
      env: baseEnv(dir.path),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const line = Buffer.from("AERO\n".repeat(16_384));
    let written = 0;
    const feed = () => {
      while (written < 1024 * 1024 * 1024 && child.stdin.write(line)) written += line.length;
      if (written < 1024 * 1024 * 1024) child.stdin.once("drain", feed);
    };
    child.stdin.on("error", () => {});
    feed();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toBe("tokenintel: --tickers -: standard input is larger than 4 MiB");
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("--rate", () => {
  it("slower than a timer can hold is refused, naming the slowest rate", async () => {
    for (const rate of ["0.00001/min", "0.0009"]) {
      const r = await run(["--rate", rate, "market", "--sandbox", "-c", "base"], dir.path);
      expect(r.code, rate).toBe(2);
      expect(r.stderr.trim()).toBe(
        `tokenintel: --rate: the slowest rate is 0.001/min (one request every 1,000 minutes), got "${rate}"`,
      );
    }
    const slowest = await run(
      ["--rate", "0.001/min", "market", "--sandbox", "-c", "base", "--limit", "1"],
      dir.path,
    );
    expect(slowest.code, slowest.stderr).toBe(0);
  });
});

describe("answers that lie", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await servers.stub((req, res) => {
      if (req.url?.startsWith("/redirect")) {
        res.writeHead(302, { location: "http://[::1" });
        res.end();
        return;
      }
      res.setHeader("content-type", "application/json");
      res.end('{"success":true,"data":[]}');
    });
  });

  it("a Location that is not a URL is one line, exit 1, no TypeError", async () => {
    const r = await run(["--base-url", server.url, "--api-key", "k", "api", "/redirect"], dir.path);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'tokenintel: the server redirected to "http://[::1", which is not a URL; not following it',
    );
  });
});
