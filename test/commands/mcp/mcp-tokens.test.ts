import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";
import { useHttpMcp } from "./mcp-http-client.js";

// `tokenintel mcp tokens add|list|revoke`: a token shown once, alone on stdout, and only its hash
// kept, in a private file; names, caps and dates listed, never a token.

const servers = useServers();
const http = useHttpMcp();
const fileOf = (folder: string) => join(folder, "data", "mcp-tokens.json");

describe("mcp tokens add", () => {
  it("prints a new token, alone on stdout, once; keeps its hash alone, in a 0600 file of a 0700 folder", async () => {
    const folder = servers.folder();
    const r = await run(
      ["mcp", "tokens", "add", "laptop", "--daily-cap", "0.50", "--max-spend", "0.1"],
      folder,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ti_[A-Za-z0-9_-]{43}\n$/);
    const token = r.stdout.trim();
    expect(r.stderr).not.toContain(token);
    expect(r.stderr).toMatch(/shown this once/);
    const file = fileOf(folder);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, "data")).mode & 0o777).toBe(0o700);
    const stored = readFileSync(file, "utf8");
    expect(stored).not.toContain(token.slice(3));
    expect(JSON.parse(stored).tokens).toEqual([
      {
        name: "laptop",
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        created: expect.any(String),
        dailyCap: "0.50",
        maxSpend: "0.1",
      },
    ]);
  });

  it("refuses a name taken, a name that is not one, and a cap that is not an amount (exit 2)", async () => {
    const folder = servers.folder();
    await run(["mcp", "tokens", "add", "one"], folder);
    const cases: Array<[string[], RegExp]> = [
      [["one"], /a token named one exists: revoke it first/],
      [["two words"], /"two words" is not a token name/],
      [["-dash"], /./],
      [["ok", "--daily-cap", "lots"], /--daily-cap: expected an amount/],
      [["ok", "--max-spend", "0.0000001"], /--max-spend: expected an amount/],
    ];
    for (const [args, said] of cases) {
      const r = await run(["mcp", "tokens", "add", ...args], folder);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(said);
    }
    expect(
      JSON.parse(readFileSync(fileOf(folder), "utf8")).tokens.map((t: { name: string }) => t.name),
    ).toEqual(["one"]);
  });
});

describe("mcp tokens list and revoke", () => {
  it("lists names, caps, creation and last use, never a token; revoke removes one", async () => {
    const folder = servers.folder();
    const empty = await run(["mcp", "tokens", "list"], folder);
    expect([empty.code, empty.stdout]).toEqual([0, ""]);
    expect(empty.stderr).toMatch(/no tokens yet: make one with 'tokenintel mcp tokens add NAME'/);
    const a = (await run(["mcp", "tokens", "add", "a", "--daily-cap", "2"], folder)).stdout.trim();
    const b = (await run(["mcp", "tokens", "add", "b"], folder)).stdout.trim();
    const listed = await run(["mcp", "tokens", "list"], folder);
    expect(listed.stdout.split("\n")[0]).toMatch(/^NAME\s+DAILY CAP\s+MAX SPEND\s+CREATED\s+LAST USED$/);
    expect(listed.stdout).toMatch(/^a\s+2\s+-\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+never$/m);
    expect(listed.stdout).toMatch(/^b\s+-\s+-\s+/m);
    for (const token of [a, b]) expect(listed.stdout + listed.stderr).not.toContain(token.slice(3, 20));
    const revoked = await run(["mcp", "tokens", "revoke", "a"], folder);
    expect(revoked.code).toBe(0);
    expect((await run(["mcp", "tokens", "list"], folder)).stdout).not.toMatch(/^a\s/m);
    const unknown = await run(["mcp", "tokens", "revoke", "a"], folder);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("tokenintel: no token named a (tokens: b)\n");
  });

  it("a server records when each token was last used", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "used");
    await http.token(folder, "idle");
    const server = await http.start(folder, ["--sandbox", "mcp", "--http", "0"]);
    await (await http.client(server.url, token)).listTools();
    expect(await server.stop()).toBe(0);
    const listed = (await run(["mcp", "tokens", "list"], folder)).stdout;
    expect(listed).toMatch(/^used\s+-\s+-\s+\S+ \S+ UTC\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC$/m);
    expect(listed).toMatch(/^idle\s.*never$/m);
  });

  it("refuses a token file others may write, or one it cannot read, in one line (exit 1); so does the server", async () => {
    const folder = servers.folder();
    await run(["mcp", "tokens", "add", "x"], folder);
    chmodSync(fileOf(folder), 0o666);
    const open = await run(["mcp", "tokens", "list"], folder);
    expect(open.code).toBe(1);
    expect(open.stderr).toMatch(
      /^tokenintel: the MCP token file .* is writable by others \(mode 0666\); run: chmod 600 /,
    );
    const serving = await run(["--sandbox", "mcp", "--http", "0"], folder);
    expect(serving.code).toBe(1);
    expect(serving.stderr).toMatch(/writable by others/);
    chmodSync(fileOf(folder), 0o600);
    writeFileSync(fileOf(folder), '{"v":1,"tokens":[{"name":"x","hash":"nope"}]}');
    const damaged = await run(["mcp", "tokens", "list"], folder);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(
      /cannot be read \(x: no valid hash\); mend it, or remove it and add the tokens again\n$/,
    );
  });
});
