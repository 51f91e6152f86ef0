import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// Help, in-process through run(): `help <command>` is `<command> --help`, a bare command group
// prints its help, and --help says a --timeout without a unit is seconds.

const servers = useServers();
const freshDir = () => servers.folder();

describe("--timeout without a unit is seconds, and the help says so", () => {
  it("tokenintel --help", async () => {
    const r = await run(["--help"], freshDir());
    const line = r.stdout.split("\n").findIndex((l) => l.includes("--timeout <duration>"));
    const text = r.stdout
      .split("\n")
      .slice(line, line + 3)
      .join(" ")
      .replace(/\s+/g, " ");
    expect(text).toMatch(
      /--timeout <duration> per-request timeout: 30s, 500ms, 2m, 1h, or a plain number of seconds/,
    );
  });
});

describe("help <command>", () => {
  it("help nope: unknown command, exit 2", async () => {
    const r = await run(["help", "nope"], freshDir());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "tokenintel: help: unknown command 'nope' (see 'tokenintel --help' for the commands)\n",
    );
  });
  it("help market is market --help", async () => {
    const r = await run(["help", "market"], freshDir());
    const direct = await run(["market", "--help"], freshDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: tokenintel market /);
    expect(r.stdout).toBe(direct.stdout);
  });
  it("help config set is config set --help, after global options too; help config nope is unknown", async () => {
    const r = await run(["--color", "never", "help", "config", "set"], freshDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: tokenintel config set \[options\] <key> <value>/);
    const nope = await run(["help", "config", "nope"], freshDir());
    expect(nope.code).toBe(2);
    expect(nope.stderr).toBe(
      "tokenintel: help: unknown command 'config nope' (see 'tokenintel config --help')\n",
    );
  });
});

describe("a bare command group behaves like a bare tokenintel", () => {
  for (const group of ["config", "auth", "cache"]) {
    it(`${group}: its help on stdout, exit 0`, async () => {
      const r = await run([group], freshDir());
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(new RegExp(`^Usage: tokenintel ${group} \\[options\\] \\[command\\]`));
      expect(r.stdout).toBe((await run([group, "--help"], freshDir())).stdout);
    });
  }
  it("config nope: unknown command, exit 2, the group's commands named", async () => {
    const r = await run(["config", "nope"], freshDir());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "tokenintel: unknown command 'config nope' (config commands: get, set, unset, list, path)\n",
    );
  });
});
