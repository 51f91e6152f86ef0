import { describe, expect, it } from "vitest";
import { runCommand } from "../harness.js";

// --quiet, in-process through run(): status lines left out, the output, warnings, errors and the exit
// code kept.

describe("--quiet", () => {
  it("leaves out status lines, keeps the output and the exit code", async () => {
    const loud = await runCommand(["auth", "logout"]);
    expect(loud.code).toBe(0);
    expect(loud.stderr).toMatch(/no key was stored/);
    const quiet = await runCommand(["--quiet", "auth", "logout"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
  });

  it("still says warnings and errors", async () => {
    const r = await runCommand(["--quiet", "auth", "logout"], {
      env: { TOKENINTEL_API_KEY: "sk_env_key_1234" },
    });
    expect(r.stderr).toMatch(/warning: TOKENINTEL_API_KEY is still set/);
    const bad = await runCommand(["--quiet", "market", "--chain", "eth"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--chain: unknown chain/);
  });
});
