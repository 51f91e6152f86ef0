import { spawn } from "node:child_process";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../fixtures.js";
import { BIN, baseEnv, run } from "../helpers.js";

// `tokenintel mcp` as a process, the built binary as an agent's client starts it: the 2.x SDK
// client (the 2026-07-28 revision, which opens with server/discover) over real stdio, stdin's end,
// exit codes and --print-config. Its tools are tested in-process in test/commands/mcp/mcp.test.ts.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_mcp`;
const WALLET = generatePrivateKey();
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });

interface Answer {
  count: number;
}

describe("tokenintel mcp: a client over stdio", () => {
  const spawnClient = (pin: string | undefined) => {
    const transport = new StdioV2({
      command: process.execPath,
      args: [BIN, "--base-url", sandbox.url, "mcp"],
      env: { ...baseEnv(servers.folder()), TOKENINTEL_API_KEY: KEY },
      stderr: "pipe",
    });
    const client = new ClientV2(
      { name: "v2-client", version: "1" },
      pin ? { versionNegotiation: { mode: { pin } } } : {},
    );
    return { client, transport };
  };

  it("serves the 2026-07-28 revision: server/discover, then tools/list and a call", async () => {
    const { client, transport } = spawnClient("2026-07-28");
    // A pinned client opens with server/discover and fails loudly unless the server offers the revision.
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("market");
      const result = await client.callTool({ name: "trending", arguments: { chain: "base", limit: 3 } });
      expect(result.isError).toBeFalsy();
      const answer = result.structuredContent as unknown as Answer & { next_cursor?: string };
      expect(answer.count).toBe(3);
      // A cursor made in this revision continues in it.
      const next = await client.callTool({
        name: "trending",
        arguments: { chain: "base", limit: 3, cursor: answer.next_cursor },
      });
      expect(next.isError, JSON.stringify(next.content)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("serves a 2025 client (initialize) from the same binary", async () => {
    const { client, transport } = spawnClient(undefined);
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toMatch(/^2025-/);
      const result = await client.callTool({ name: "trending", arguments: { chain: "base", limit: 2 } });
      expect((result.structuredContent as unknown as Answer).count).toBe(2);
    } finally {
      await client.close();
    }
  });
});

describe("tokenintel mcp: its life", () => {
  const frame = (message: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
  const initialize = frame({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "sh", version: "1" } },
  });

  it("a bad flag ends it at once with one line and exit 2, before any answer", async () => {
    const r = await run(["mcp", "--sandbox", "--max-spend", "abc"], servers.folder(), { input: initialize });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      'tokenintel: --max-spend: expected an amount such as 0.01 (at most 6 decimals), got "abc"\n',
    );
    const flag = await run(["mcp", "--print-config", "vscode"], servers.folder());
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/vscode/);
  });

  it("answers what was read with stdin's end, then ends (exit 0), in every mode", async () => {
    for (const mode of [["--sandbox"], ["--base-url", sandbox.url]]) {
      const r = await run([...mode, "mcp"], servers.folder(), {
        input:
          initialize +
          frame({ method: "notifications/initialized" }) +
          frame({ id: 2, method: "tools/list" }),
        env: { TOKENINTEL_API_KEY: KEY },
      });
      expect(r.code, r.stderr).toBe(0);
      const ids = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id);
      expect(ids).toEqual([1, 2]);
    }
  });

  it("answers initialize and tools/list before the SDK server starts, then the SDK answers a call", async () => {
    const child = spawn(process.execPath, [BIN, "--sandbox", "mcp"], {
      env: baseEnv(servers.folder()),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // Each answer, with whether the server had said on stderr that the SDK server was serving.
    const answers: Array<{ id: unknown; serving: boolean; result: Record<string, unknown> }> = [];
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        answers.push({ id: message.id, serving: stderr.includes("serving"), result: message.result });
        if (message.id === 1)
          child.stdin.write(
            frame({ method: "notifications/initialized" }) + frame({ id: 2, method: "tools/list" }),
          );
        if (message.id === 2)
          child.stdin.write(
            frame({
              id: 3,
              method: "tools/call",
              params: { name: "trending", arguments: { chain: "base", limit: 2 } },
            }),
          );
        if (message.id === 3) child.stdin.end();
      }
    });
    child.stdin.write(initialize);
    expect(await exited).toBe(0);
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers.map((a) => a.serving)).toEqual([false, false, true]);
    expect((answers[1]!.result.tools as unknown[]).length).toBe(11);
    expect((answers[2]!.result.structuredContent as Answer).count).toBe(2);
  });

  it("stdin ending right after initialize: it is answered once, then the server ends (exit 0)", async () => {
    const r = await run(["--sandbox", "mcp"], servers.folder(), { input: initialize });
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual([1]);
  });

  it("a call in flight when stdin ends gets an error answer, and the server exits within seconds", async () => {
    for (const mode of ["hanging", "sandbox"] as const) {
      const hanging = await servers.stub(() => {});
      const args =
        mode === "sandbox" ? ["--sandbox", "mcp"] : ["--base-url", hanging.url, "--timeout", "60", "mcp"];
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { ...baseEnv(servers.folder()), TOKENINTEL_API_KEY: KEY },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      const started = Date.now();
      child.stdin.write(initialize + frame({ method: "notifications/initialized" }));
      child.stdin.write(
        frame({
          id: 7,
          method: "tools/call",
          params: { name: "market", arguments: { chain: "base", where: ["token_info.symbol=NONE"] } },
        }),
      );
      if (mode === "hanging") {
        while (hanging.requests.length === 0 && Date.now() - started < 10_000)
          await new Promise((r) => setTimeout(r, 20));
        expect(hanging.requests).toHaveLength(1);
      } else await new Promise((r) => setTimeout(r, 150));
      child.stdin.end();
      const code = await exited;
      expect(code, mode).toBe(0);
      expect(Date.now() - started, mode).toBeLessThan(8_000);
      const answer = out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .find((m) => m.id === 7);
      expect(answer, `${mode}: ${out}`).toBeDefined();
      if (mode === "hanging") {
        expect(answer.result.isError).toBe(true);
        expect(answer.result.content[0].text).toBe("market: stopped: the client closed stdin");
      }
    }
  });
});

describe("tokenintel mcp --print-config", () => {
  it("prints a client's entry with absolute paths, the flags and settings, and no secret", async () => {
    const folder = servers.folder();
    const r = await run(
      ["--api-key", KEY, "mcp", "--pay", "--max-spend", "0.5", "--print-config", "claude-desktop"],
      folder,
      { env: { TOKENINTEL_DAILY_CAP: "2", TOKENINTEL_WALLET_KEY: WALLET } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(r.stdout + r.stderr).not.toContain(WALLET.slice(2));
    const entry = JSON.parse(r.stdout).mcpServers.tokenintel;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([
      expect.stringMatching(/bin\/tokenintel\.js$/),
      "mcp",
      "--pay",
      "--max-spend",
      "0.5",
    ]);
    expect(entry.env).toMatchObject({
      TOKENINTEL_DAILY_CAP: "2",
      TOKENINTEL_CONFIG_DIR: folder,
      TOKENINTEL_WALLET_KEY: expect.stringMatching(/^<.*>$/),
    });
    expect(r.stderr).toMatch(/claude_desktop_config\.json/);
    const code = await run(["mcp", "--print-config", "claude-code"], folder, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    const codeEntry = JSON.parse(code.stdout).mcpServers.tokenintel;
    expect(codeEntry).toMatchObject({
      type: "stdio",
      env: { TOKENINTEL_API_KEY: expect.stringMatching(/^<.*>$/) },
    });
    expect(code.stdout).not.toContain(KEY);
  });

  it("carries the settings' variables and folders, never a URL's credentials or other variables", async () => {
    const folder = servers.folder();
    const r = await run(["mcp", "--print-config", "cursor"], folder, {
      env: {
        TOKENINTEL_BASE_URL: "https://user:sk_url_secret@api.example.com",
        TOKENINTEL_SOMETHING: "not a setting",
        TOKENINTEL_CHAIN: "base",
      },
    });
    expect(r.code, r.stderr).toBe(0);
    const env = JSON.parse(r.stdout).mcpServers.tokenintel.env;
    expect(env).toMatchObject({ TOKENINTEL_BASE_URL: "https://api.example.com", TOKENINTEL_CHAIN: "base" });
    expect(env.TOKENINTEL_SOMETHING).toBeUndefined();
    expect(r.stdout).not.toContain("sk_url_secret");
  });
});
