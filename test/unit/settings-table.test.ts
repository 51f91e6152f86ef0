import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Setting } from "../../src/config/settings-table.js";

// Issue 24 item 1: a setting is declared once, in config/settings-table.ts. This test adds one to
// the table, and to nothing else, and finds it everywhere a setting shows: `config set`'s check,
// `config get`, `config list`, the environment and the flag (in that order of precedence), a
// command's --help, `config --help`, the completion scripts and the man page.

const DAILY_CAP: Setting = {
  description: "the most --pay may spend in a day, in USDC",
  env: "TOKENINTEL_DAILY_CAP",
  flag: {
    group: "payment",
    flags: "--daily-cap <amount>",
    description: "refuse to pay more than this in a day (or TOKENINTEL_DAILY_CAP, 'config set daily-cap')",
    kind: "amount",
  },
  unset: "(no cap)",
};

type Harness = typeof import("../commands/harness.js");
let harness: Harness;

beforeAll(async () => {
  // A fresh copy of every module, so that the table each one reads has the new entry.
  vi.resetModules();
  const table = await import("../../src/config/settings-table.js");
  (table.SETTINGS as Record<string, Setting>)["daily-cap"] = DAILY_CAP;
  harness = await import("../commands/harness.js");
});
afterAll(() => vi.resetModules());

describe("a setting added to the table alone", () => {
  it("is checked by `config set` with its flag's kind, and named among the known keys", async () => {
    const bad = await harness.runCommand(["config", "set", "daily-cap", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("daily-cap: expected an amount such as 0.01");
    const unknown = await harness.runCommand(["config", "set", "daily-cup", "1"]);
    expect(unknown.stderr).toMatch(/unknown config key "daily-cup" \(known: .*daily-cap/);
  });

  it("is listed by `config list`: default, env, then flag; a bad env value marked invalid", async () => {
    const line = (out: string) => out.split("\n").find((l) => l.startsWith("daily-cap "));
    const unset = await harness.runCommand(["config", "list"]);
    expect(line(unset.stdout)).toMatch(/^daily-cap\s+\(no cap\)\s+\(default\)$/);
    const fromEnv = await harness.runCommand(["config", "list"], { env: { TOKENINTEL_DAILY_CAP: "2.5" } });
    expect(line(fromEnv.stdout)).toMatch(/^daily-cap\s+2\.5\s+\(env TOKENINTEL_DAILY_CAP\)$/);
    const badEnv = await harness.runCommand(["config", "list"], { env: { TOKENINTEL_DAILY_CAP: "x" } });
    expect(line(badEnv.stdout)).toMatch(/\(env TOKENINTEL_DAILY_CAP\)\s+INVALID: expected an amount/);
  });

  it("is read by a run from its flag, else the environment (checked under its name), else the store", async () => {
    const { Settings } = await import("../../src/settings.js");
    const dir = (await import("node:fs")).mkdtempSync(`${(await import("node:os")).tmpdir()}/ti-table-`);
    const { writeFileSync, chmodSync, rmSync } = await import("node:fs");
    chmodSync(dir, 0o700);
    writeFileSync(`${dir}/config.json`, JSON.stringify({ settings: { "daily-cap": "7" } }), { mode: 0o600 });
    try {
      const get = (env: Record<string, string>, flag?: string) =>
        new Settings({}, { TOKENINTEL_CONFIG_DIR: dir, ...env }).get("daily-cap" as "chain", flag as never);
      expect(await get({})).toBe("7");
      expect(await get({ TOKENINTEL_DAILY_CAP: "3" })).toBe("3");
      expect(await get({ TOKENINTEL_DAILY_CAP: "3" }, "1")).toBe("1");
      await expect(get({ TOKENINTEL_DAILY_CAP: "three" })).rejects.toThrow(
        /^TOKENINTEL_DAILY_CAP: expected an amount/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("appears in the help of the commands of its flag group and in `config --help`", async () => {
    const directory = await harness.runCommand(["directory", "--help"]);
    expect(directory.stderr + directory.stdout).toContain("--daily-cap <amount>");
    const config = await harness.runCommand(["config", "--help"]);
    expect(config.stderr + config.stdout).toMatch(
      /\n {2}daily-cap {4}the most --pay may spend in a day, in USDC\n {15}--daily-cap, TOKENINTEL_DAILY_CAP\n/,
    );
  });

  it("is completed: the flag, and the key after config set", async () => {
    const bash = await harness.runCommand(["completion", "bash"]);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain("--daily-cap");
    expect(bash.stdout).toMatch(/pos='base-url chain output timeout retries pay-network cache daily-cap'/);
  });

  it("is in the man page: the flag, and the variable under ENVIRONMENT", async () => {
    const { manPage } = await import("../../scripts/man-page.js");
    const page = await manPage("0.0.0");
    expect(page).toContain("\\-\\-daily\\-cap");
    const environment = page.slice(page.indexOf(".SH ENVIRONMENT"), page.indexOf(".SH FILES"));
    expect(environment).toContain(
      ".TP\n\\fBTOKENINTEL_DAILY_CAP\\fR\nthe most \\-\\-pay may spend in a day, in USDC",
    );
  });
});
