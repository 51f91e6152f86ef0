import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { run } from "../../commands/harness.js";
import { useServers } from "../fixtures.js";
import { BIN, baseEnv } from "../helpers.js";

// The sandbox as a new user meets it: --sandbox on a fresh machine with no key, and `tokenintel
// sandbox` as a process (its URL and demo key, requests served, Ctrl-C).

const servers = useServers();
const freshDir = () => servers.folder();

describe("the sandbox", () => {
  it("--sandbox runs a data command on a fresh machine with no key and no network", async () => {
    const r = await run(
      ["market", "--sandbox", "--chain", "base", "--ecosystem", "virtuals", "--limit", "3", "--json"],
      freshDir(),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
  });

  it("tokenintel sandbox prints its URL and demo key, serves requests, and stops on Ctrl-C", async () => {
    const home = freshDir();
    const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0"], { env: baseEnv(home) });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        const m = /url: (\S+)\napi key: (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", () => reject(new Error(`sandbox exited: ${out}`)));
    });
    const key = /api key: (\S+)/.exec(out)![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await run(
      ["--base-url", url, "--api-key", key, "agents", "-c", "base", "--limit", "2", "--json"],
      home,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", (c) => resolve(c));
      child.kill("SIGINT");
    });
    expect(code).toBe(130);
  });
});
