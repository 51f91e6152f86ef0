import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `tokenintel mcp --print-config`, in-process: the entry a client starts the server with, from
// another folder and without the user's environment. Paths are written absolute; --pay needs no
// wallet key to print its entry (it holds a placeholder for one); payment flags are still checked.

const WALLET = generatePrivateKey();
const servers = useServers();
neverShown(WALLET, WALLET.slice(2));

const entryOf = (stdout: string) =>
  JSON.parse(stdout).mcpServers.tokenintel as { args: string[]; env?: Record<string, string> };

describe("tokenintel mcp --pay --print-config", () => {
  it("prints the entry as the help's example has it, with no wallet key set: a placeholder stands for it", async () => {
    const r = await run(
      ["mcp", "--pay", "--max-spend", "0.50", "--daily-cap", "2", "--print-config", "cursor"],
      servers.folder(),
    );
    expect(r.code, r.stderr).toBe(0);
    const entry = entryOf(r.stdout);
    expect(entry.args.slice(1)).toEqual(["mcp", "--pay", "--max-spend", "0.50", "--daily-cap", "2"]);
    expect(entry.env?.TOKENINTEL_WALLET_KEY).toMatch(/^<.*>$/);
    expect(r.stderr).toMatch(/\.cursor\/mcp\.json/);
  });

  it("a bad payment flag is still exit 2, and a payment flag without --pay", async () => {
    for (const args of [
      ["mcp", "--pay", "--max-spend", "lots", "--print-config", "cursor"],
      ["mcp", "--pay", "--daily-cap", "-1", "--print-config", "cursor"],
      ["mcp", "--max-spend", "0.50", "--print-config", "cursor"],
    ]) {
      const r = await run(args, servers.folder());
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("tokenintel mcp --print-config: paths the client can find from anywhere", () => {
  it("a relative --wallet-key-file, either spelling, is written absolute", async () => {
    const folder = servers.folder();
    const file = join(folder, "wk.txt");
    writeFileSync(file, `${WALLET}\n`, { mode: 0o600 });
    // The key file named relative to this run's folder, as a user types it beside the file.
    const typed = relative(process.cwd(), file);
    expect(typed.startsWith("/")).toBe(false);
    for (const spelling of [["--wallet-key-file", typed], [`--wallet-key-file=${typed}`]]) {
      const r = await run(["mcp", "--pay", ...spelling, "--print-config", "claude-code"], folder);
      expect(r.code, r.stderr).toBe(0);
      const entry = entryOf(r.stdout);
      const expected = spelling.length === 2 ? ["--wallet-key-file", file] : [`--wallet-key-file=${file}`];
      expect(entry.args.slice(1)).toEqual(["mcp", "--pay", ...expected]);
      // The key is in the file, not in the entry: no placeholder for it either.
      expect(entry.env?.TOKENINTEL_WALLET_KEY).toBeUndefined();
    }
  });

  it("a folder's variable set relative is written absolute", async () => {
    const folder = servers.folder();
    const data = relative(process.cwd(), join(folder, "data"));
    const r = await run(["mcp", "--print-config", "cursor"], folder, { env: { TOKENINTEL_DATA_DIR: data } });
    expect(r.code, r.stderr).toBe(0);
    expect(entryOf(r.stdout).env?.TOKENINTEL_DATA_DIR).toBe(join(folder, "data"));
  });
});
