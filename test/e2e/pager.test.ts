import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { run } from "../commands/harness.js";
import { useSandbox, useServers } from "./fixtures.js";
import { baseEnv } from "./helpers.js";
import { commandLine, launchPty, plain } from "./terminal-session.js";

// A table longer than the terminal goes through a pager, as git and gh do;
// never into a pipe, never with --no-pager or PAGER=. The pagers here are small shell scripts that
// say they ran and what they were given.

const dir = { path: useServers().folder() };
const sandbox = useSandbox();

function script(name: string, body: string): string {
  const path = join(dir.path, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}
const bin = join(dir.path, "bin");
beforeAll(() => {
  mkdirSync(bin, { recursive: true });
  // Records how it was started, then shows its input between two markers.
  script(
    "bin/less",
    `printf '%s' "$*" > ${dir.path}/less-argv\nprintf '%s' "\${LESS-unset}" > ${dir.path}/less-env\necho LESS-START\ncat\necho LESS-END`,
  );
});
const markerPager = () => script("marker-pager", 'echo "PAGER-START $*"\ncat\necho PAGER-END');

/** Sixty tokens: longer than the 40 rows of these terminals. */
const LONG = ["market", "-c", "base", "--limit", "60", "--color", "never"];
const against = () => ["--base-url", sandbox.url, "--api-key", sandbox.apiKey];

/** A terminal of 40 rows and 160 columns whose environment names no pager unless `env` does. */
function terminal(args: string[], env: Record<string, string> = {}, columns = "160") {
  const clean = baseEnv(dir.path);
  for (const name of ["PAGER", "LESS", "LV", "TOKENINTEL_PAGER"]) delete clean[name];
  const pty = launchPty(commandLine([...against(), ...args]), {
    ...clean,
    COLUMNS: columns,
    LINES: "40",
    TERM: "xterm-256color",
    ...env,
  });
  const waitFor = async (text: string) => {
    while (!pty.screen().includes(text)) {
      if (pty.child.exitCode !== null) throw new Error(`exited before showing ${text}: ${pty.screen()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child: pty.child, exited: pty.exited, waitFor, screen: () => plain(pty.screen()).join("\n") };
}

/** Rows of the market table: every one shows the 1H change as a signed percentage. */
const tableRows = (screen: string) => screen.split("\n").filter((l) => / [+-]\d+\.\d\d% /.test(l)).length;

describe("long tables go through the pager on a terminal", () => {
  it("PAGER gets the table on its input, whole", async () => {
    const t = terminal(LONG, { PAGER: `${markerPager()} --from-env` });
    expect(await t.exited).toBe(0);
    const screen = t.screen();
    expect(screen).toMatch(/PAGER-START --from-env\nSYMBOL +NAME/);
    expect(screen).toMatch(/\nPAGER-END/);
    const inside = screen.slice(screen.indexOf("PAGER-START"), screen.indexOf("PAGER-END"));
    expect(tableRows(inside)).toBe(60);
  });

  it("the default is less -FRX, with LESS=FRX when LESS is unset (kept when set)", async () => {
    const path = `${bin}:${process.env.PATH}`;
    const t = terminal(LONG, { PATH: path });
    expect(await t.exited).toBe(0);
    expect(t.screen()).toMatch(/LESS-START\nSYMBOL[\s\S]*LESS-END/);
    expect(readFileSync(join(dir.path, "less-argv"), "utf8")).toBe("-FRX");
    expect(readFileSync(join(dir.path, "less-env"), "utf8")).toBe("FRX");
    const own = terminal(LONG, { PATH: path, LESS: "-S" });
    expect(await own.exited).toBe(0);
    expect(own.screen()).toContain("LESS-START");
    expect(readFileSync(join(dir.path, "less-env"), "utf8")).toBe("-S");
  });

  it("any pager (PAGER=less too) gets LESS=FRX and LV=-c when they are unset, as git does", async () => {
    const path = `${bin}:${process.env.PATH}`;
    const envPager = script(
      "env-pager",
      `printf '%s|%s' "\${LESS-unset}" "\${LV-unset}" > ${dir.path}/pager-env\ncat`,
    );
    for (const pager of ["less", envPager]) {
      const t = terminal(LONG, { PATH: path, PAGER: pager });
      expect(await t.exited).toBe(0);
    }
    expect(readFileSync(join(dir.path, "less-env"), "utf8")).toBe("FRX");
    expect(readFileSync(join(dir.path, "pager-env"), "utf8")).toBe("FRX|-c");
    const own = terminal(LONG, { PATH: path, PAGER: envPager, LESS: "-S", LV: "-a" });
    expect(await own.exited).toBe(0);
    expect(readFileSync(join(dir.path, "pager-env"), "utf8")).toBe("-S|-a");
  });

  it("less is told the text is UTF-8 (LESSCHARSET) when no locale says so, unless the user set a charset", async () => {
    const path = `${bin}:${process.env.PATH}`;
    const charset = script(
      "charset-pager",
      `printf '%s|%s' "\${LESSCHARSET-unset}" "\${LESSCHARDEF-unset}" > ${dir.path}/pager-charset\ncat`,
    );
    const seen = async (env: Record<string, string>) => {
      const t = terminal(LONG, { PATH: path, PAGER: charset, ...env });
      expect(await t.exited).toBe(0);
      return readFileSync(join(dir.path, "pager-charset"), "utf8");
    };
    // No locale at all (env -i, a bare container): the table is written in UTF-8, so less must read it so.
    expect(await seen({ LANG: "", LC_ALL: "", LC_CTYPE: "" })).toBe("utf-8|unset");
    expect(await seen({ LANG: "C.UTF-8" })).toBe("utf-8|unset");
    expect(await seen({ LANG: "", LESSCHARSET: "latin1" })).toBe("latin1|unset");
    expect(await seen({ LANG: "", LESSCHARDEF: "8bcccbcc18b95.b" })).toBe("unset|8bcccbcc18b95.b");
    // An ASCII locale gets ASCII text: less's own charset reads it.
    expect(await seen({ LANG: "C", LC_ALL: "C" })).toBe("unset|unset");
  });

  it("TOKENINTEL_PAGER wins over PAGER", async () => {
    const mine = script("mine", 'echo "MINE-START"\ncat');
    const t = terminal(LONG, { PAGER: markerPager(), TOKENINTEL_PAGER: mine });
    expect(await t.exited).toBe(0);
    expect(t.screen()).toContain("MINE-START");
    expect(t.screen()).not.toContain("PAGER-START");
  });

  it("not with --no-pager, PAGER= or TOKENINTEL_PAGER=, nor for a table that fits the screen", async () => {
    for (const [args, env] of [
      [["--no-pager", ...LONG], { PAGER: markerPager() }],
      [LONG, { PAGER: "" }],
      [LONG, { PAGER: markerPager(), TOKENINTEL_PAGER: "" }],
      [["market", "-c", "base", "--limit", "30", "--color", "never"], { PAGER: markerPager() }],
    ] as Array<[string[], Record<string, string>]>) {
      const t = terminal(args, env);
      expect(await t.exited).toBe(0);
      expect(t.screen(), args.join(" ")).not.toContain("PAGER-START");
      expect(tableRows(t.screen())).toBe(args.includes("30") ? 30 : 60);
    }
  });

  it("never for --watch, which redraws its table in place", async () => {
    const t = terminal([...LONG, "--watch", "1s", "--count", "1"], { PAGER: markerPager() });
    expect(await t.exited).toBe(0);
    expect(t.screen()).toContain("SYMBOL");
    expect(t.screen()).not.toContain("PAGER-START");
  });

  it("never into a pipe", async () => {
    const r = await run([...against(), ...LONG, "-o", "table"], dir.path, {
      env: { PAGER: markerPager(), LINES: "10" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("PAGER-START");
    expect(tableRows(r.stdout)).toBe(60);
  });

  it("a pager that quits early (q) ends the run quietly, exit 0", async () => {
    const one = script("one-line", 'IFS= read -r line\necho "ONE: ${line%% *}"');
    // Most of a megabyte of table (300 rows, every metric a column, 5000 columns wide): far more than
    // the pager's input holds, so its going away is felt as EPIPE.
    const paths = (await run(["market", "--fields"], dir.path)).stdout
      .split("\n")
      .filter((p) => /^(token_info|token_metrics|token_holder_insights|x_social_metrics)\./.test(p));
    const args = ["market", "-c", "base", "--limit", "300", "-o", "table", "--columns", paths.join(",")];
    const t = terminal(args, { PAGER: one }, "5000");
    expect(await t.exited).toBe(0);
    // The first line the pager read: the table's header, its first column the view's ID. (Two of
    // the documented fields no sandbox record carries are named on stderr, after the pager.)
    expect(t.screen()).toMatch(/^ONE: ID\s*\n/);
    expect(t.screen()).toMatch(
      /tokenintel: warning: --columns: no record had "token_info\.image", "token_metrics\.market_cap_usd"; their columns are empty in market\s*$/,
    );
  });

  it("a pager that is not installed: one warning line, the table shown directly", async () => {
    const t = terminal(LONG, { PAGER: join(dir.path, "no-such-pager") });
    expect(await t.exited).toBe(0);
    const lines = t.screen().split("\n");
    expect(lines.filter((l) => l.startsWith("tokenintel:"))).toEqual([
      `tokenintel: warning: pager "${join(dir.path, "no-such-pager")}" not found; showing the output without it (set PAGER, or --no-pager)`,
    ]);
    expect(tableRows(t.screen())).toBe(60);
  });

  it("stderr is not lost under the pager: said after it ends", async () => {
    const t = terminal(LONG, { PAGER: markerPager() }, "60");
    expect(await t.exited).toBe(0);
    const screen = t.screen();
    expect(screen).toMatch(/PAGER-END\n\(\d+ more columns did not fit/);
  });

  it("Ctrl-C while paging is the pager's: tokenintel waits for it, then exits 0", async () => {
    const patient = script(
      "patient",
      "trap '' INT\necho PATIENT-START\nIFS= read -r key < /dev/tty\ncat > /dev/null\necho \"PATIENT-END $key\"",
    );
    const t = terminal(LONG, { PAGER: patient });
    await t.waitFor("PATIENT-START");
    t.child.stdin.write("\x03");
    t.child.stdin.write("q\r");
    expect(await t.exited).toBe(0);
    expect(t.screen()).toContain("PATIENT-END q");
    expect(t.screen()).not.toMatch(/tokenintel:|Error|\n\s+at /);
  });
});
