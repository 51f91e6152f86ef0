import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fullProgram, HIDDEN_COMMANDS } from "../../../src/program.js";
import { run } from "../../commands/harness.js";
import { useServers } from "../fixtures.js";
import { sh } from "../terminal-session.js";

// The scripts `tokenintel completion <shell>` prints, run in-process through run(): bash's completes
// commands, flags and fixed values in a real bash; zsh's and fish's name every command and fixed
// value; another shell is a usage error.

const dir = { path: useServers().folder() };

describe("completion and suggestions", () => {
  it("bash completion completes commands, flags and fixed values", async () => {
    const script = (await run(["completion", "bash"], dir.path)).stdout;
    const complete = (words: string[]) =>
      new Promise<string>((resolve) => {
        const code = `${script}\nCOMP_WORDS=(${words.map(sh).join(" ")}); COMP_CWORD=${words.length - 1}; _tokenintel; echo "\${COMPREPLY[*]}"`;
        const child = spawn("bash", ["-c", code]);
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
        child.on("close", () => resolve(out.trim()));
      });
    expect(await complete(["tokenintel", "ma"])).toBe("market");
    expect(await complete(["tokenintel", "market", "--chain", ""])).toBe("base solana");
    expect(await complete(["tokenintel", "market", "--view", ""])).toBe("overview holders risk social dev");
    expect(await complete(["tokenintel", "market", "-o", "n"])).toBe("ndjson");
    expect(await complete(["tokenintel", "--color", "a"])).toBe("auto always");
    expect(await complete(["tokenintel", "directory", "--dr"])).toBe("--dry-run");
    expect(await complete(["tokenintel", "config", "s"])).toBe("set");
  });

  it("zsh and fish scripts cover every command and the fixed values", async () => {
    // Every command the program has, each as a whole item of the shell's list ("ta" alone is in "data").
    const commands = (await fullProgram()).commands
      .map((c) => c.name())
      .filter((n) => !HIDDEN_COMMANDS.has(n));
    expect(commands.length).toBeGreaterThan(20);
    const item = { zsh: (name: string) => `\n    '${name}:`, fish: (name: string) => ` -a ${name} -d ` };
    for (const shell of ["zsh", "fish"] as const) {
      const r = await run(["completion", shell], dir.path);
      expect(r.code).toBe(0);
      for (const name of commands) expect(r.stdout, `${shell}: ${name}`).toContain(item[shell](name));
      for (const word of ["overview holders risk social dev", "base solana", "table json ndjson csv"]) {
        expect(r.stdout, `${shell}: ${word}`).toContain(word);
      }
    }
    const bad = await run(["completion", "powershell"], dir.path);
    expect(bad.code).toBe(2);
  });
});
