import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Setting } from "../../src/flags/settings-table.js";

// A setting is declared once, in flags/settings-table.ts. This test adds one to
// the table, and to nothing else, and finds it everywhere a setting shows: `config set`'s check,
// `config get`, `config list`, the environment and the flag (in that order of precedence), a
// command's --help, `config --help`, the completion scripts and the man page.

const SPEND_ALERT: Setting = {
  description: "warn when a run has paid this much, in USDC",
  env: "TOKENINTEL_SPEND_ALERT",
  flag: {
    group: "payment",
    flags: "--spend-alert <amount>",
    description:
      "warn on stderr once a run has paid this much (or TOKENINTEL_SPEND_ALERT, 'config set spend-alert')",
    kind: "amount",
  },
  unset: "(no alert)",
};

type Harness = typeof import("../commands/harness.js");
let harness: Harness;

beforeAll(async () => {
  // A fresh copy of every module, so that the table each one reads has the new entry.
  vi.resetModules();
  const table = await import("../../src/flags/settings-table.js");
  (table.SETTINGS as Record<string, Setting>)["spend-alert"] = SPEND_ALERT;
  harness = await import("../commands/harness.js");
});
afterAll(() => vi.resetModules());

describe("a setting added to the table alone", () => {
  it("is checked by `config set` with its flag's kind, and named among the known keys", async () => {
    const bad = await harness.runCommand(["config", "set", "spend-alert", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("spend-alert: expected an amount such as 0.01");
    const unknown = await harness.runCommand(["config", "set", "spend-alrt", "1"]);
    expect(unknown.stderr).toMatch(
      /unknown config key "spend-alrt" \(did you mean spend-alert\?\) \(known: .*spend-alert/,
    );
  });

  it("is listed by `config list`: default, env, then flag; a bad env value marked invalid", async () => {
    const line = (out: string) => out.split("\n").find((l) => l.startsWith("spend-alert "));
    const unset = await harness.runCommand(["config", "list"]);
    expect(line(unset.stdout)).toMatch(/^spend-alert\s+\(no alert\)\s+\(default\)$/);
    const fromEnv = await harness.runCommand(["config", "list"], { env: { TOKENINTEL_SPEND_ALERT: "2.5" } });
    expect(line(fromEnv.stdout)).toMatch(/^spend-alert\s+2\.5\s+\(env TOKENINTEL_SPEND_ALERT\)$/);
    const badEnv = await harness.runCommand(["config", "list"], { env: { TOKENINTEL_SPEND_ALERT: "x" } });
    expect(line(badEnv.stdout)).toMatch(/\(env TOKENINTEL_SPEND_ALERT\)\s+INVALID: expected an amount/);
  });

  it("is read by a run from its flag, else the environment (checked under its name), else the store", async () => {
    const { Settings } = await import("../../src/settings.js");
    const dir = (await import("node:fs")).mkdtempSync(`${(await import("node:os")).tmpdir()}/ti-table-`);
    const { writeFileSync, chmodSync, rmSync } = await import("node:fs");
    chmodSync(dir, 0o700);
    writeFileSync(`${dir}/config.json`, JSON.stringify({ settings: { "spend-alert": "7" } }), {
      mode: 0o600,
    });
    try {
      const get = (env: Record<string, string>, flag?: string) =>
        new Settings({}, { TOKENINTEL_CONFIG_DIR: dir, ...env }).get("spend-alert" as "chain", flag as never);
      expect(await get({})).toBe("7");
      expect(await get({ TOKENINTEL_SPEND_ALERT: "3" })).toBe("3");
      expect(await get({ TOKENINTEL_SPEND_ALERT: "3" }, "1")).toBe("1");
      await expect(get({ TOKENINTEL_SPEND_ALERT: "three" })).rejects.toThrow(
        /^TOKENINTEL_SPEND_ALERT: expected an amount/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("appears in the help of the commands of its flag group and in `config --help`", async () => {
    const directory = await harness.runCommand(["directory", "--help"]);
    expect(directory.stderr + directory.stdout).toContain("--spend-alert <amount>");
    const config = await harness.runCommand(["config", "--help"]);
    expect(config.stderr + config.stdout).toMatch(
      /\n {2}spend-alert {2}warn when a run has paid this much, in USDC\n {15}--spend-alert, TOKENINTEL_SPEND_ALERT\n/,
    );
  });

  it("is completed: the flag, and the key after config set", async () => {
    const bash = await harness.runCommand(["completion", "bash"]);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain("--spend-alert");
    expect(bash.stdout).toMatch(
      /pos='base-url api-paths chain output timeout retries pay-network pay-to daily-cap cache spend-alert'/,
    );
  });

  it("is in the man page: the flag, and the variable under ENVIRONMENT", async () => {
    const { manPage } = await import("../../scripts/man-page.js");
    const page = await manPage("0.0.0");
    expect(page).toContain("\\-\\-spend\\-alert");
    const environment = page.slice(page.indexOf(".SH ENVIRONMENT"), page.indexOf(".SH FILES"));
    expect(environment).toContain(
      ".TP\n\\fBTOKENINTEL_SPEND_ALERT\\fR\nwarn when a run has paid this much, in USDC",
    );
  });
});
