import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";
import { useMcp } from "../mcp-client.js";

// What an agent sends a tool is data, never a path: every string and list argument of
// every tool, given `@<file>` or `-`, reads nothing, sends nothing of the file anywhere (result,
// requests, stderr, ledger), and answers the same whether the file exists or not. Every secret the
// server knows (the stored key too) is masked in what a tool answers.

const ENV_KEY = `sk_env_${Math.random().toString(36).slice(2)}_untrusted`;
const STORED_KEY = `sk_stored_${Math.random().toString(36).slice(2)}_untrusted`;
const WALLET = generatePrivateKey();
const MARKER = `PRIVATE-LINE-${Math.random().toString(36).slice(2)}`;
const servers = useServers();
const sandbox = useSandbox({ apiKey: ENV_KEY });
const connect = useMcp(() => [ENV_KEY, STORED_KEY, WALLET.slice(2), MARKER]);

/** Every request the server under test sent, in full, for a proxy in front of the sandbox. */
async function recordingProxy() {
  const proxy = await servers.stub(async (req, res, seen) => {
    const upstream = await fetch(`${sandbox.url}${seen.url}`, {
      method: seen.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length") as Array<
          [string, string]
        >,
      ),
      body: seen.method === "GET" ? undefined : seen.body,
    });
    const headers: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (k !== "content-encoding" && k !== "content-length" && k !== "transfer-encoding") headers[k] = v;
    });
    res.writeHead(upstream.status, headers);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  return proxy;
}

type Schema = { type?: string; enum?: unknown[]; items?: { type?: string } };

/** The arguments a call needs besides the one under test. */
function baseArgs(tool: string, required: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = { chain: "base" };
  if (required.includes("question")) args.question = "how is $AIXBT doing?";
  if (tool === "check") args.tickers = ["AIXBT"];
  if (tool === "history") args.tickers = ["AIXBT"];
  return args;
}

describe.each([
  { paying: false, label: "keyed" },
  { paying: true, label: "paying, with --wallet-key-file" },
])("tokenintel mcp, $label: a tool argument never reads a file or stdin", ({ paying }) => {
  it("every string and list argument of every tool: nothing read, sent, stored or told", async () => {
    const folder = servers.folder();
    const secretFile = join(folder, "id_ed25519");
    writeFileSync(secretFile, `${MARKER}\nsecond-line\n`);
    const walletFile = join(folder, "wallet.key");
    writeFileSync(walletFile, `${WALLET}\n`, { mode: 0o600 });
    const missing = join(folder, "no-such-file");
    const proxy = await recordingProxy();
    const args = ["--base-url", proxy.url, "mcp"];
    const env: Record<string, string> = { TOKENINTEL_API_KEY: ENV_KEY };
    if (paying) {
      args.push("--pay", "--wallet-key-file", walletFile, "--max-spend", "1");
      env.TOKENINTEL_API_KEY = "";
    }
    const { client, stderr } = await connect(folder, args, env);
    const { tools } = await client.listTools();
    let tried = 0;
    for (const tool of tools) {
      const props = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
      const required = (tool.inputSchema.required ?? []) as string[];
      for (const [name, schema] of Object.entries(props)) {
        const isList = schema.type === "array" && schema.items?.type === "string";
        const isText = schema.type === "string" && !schema.enum;
        if (!isList && !isText) continue;
        const answers: string[] = [];
        for (const source of [`@${secretFile}`, `@${walletFile}`, "-", `@${missing}`]) {
          const value = isList ? [source] : source;
          const result = await client.callTool({
            name: tool.name,
            arguments: { ...baseArgs(tool.name, required), [name]: value },
          });
          const text = JSON.stringify(result);
          expect(text, `${tool.name}.${name}=${source}`).not.toContain(MARKER);
          expect(text, `${tool.name}.${name}=${source}`).not.toContain("second-line");
          expect(text, `${tool.name}.${name}=${source}`).not.toContain(WALLET.slice(2));
          expect(text, `${tool.name}.${name}=${source}`).not.toMatch(/ENOENT|no such file|not a file/i);
          // The same answer up to the path named and the ids the service gives each answer.
          if (source.startsWith("@"))
            answers.push(
              text
                .split(source)
                .join("@PATH")
                .replace(/\\?"(question_id|answer_id|next_cursor)\\?":\\?"[\w.-]+/g, "$1"),
            );
          tried++;
        }
        // The wallet file, the secret file and a missing one get one and the same answer.
        expect(answers[0], `${tool.name}.${name}: a file that exists is told from one that does not`).toBe(
          answers[2],
        );
        expect(answers[1], `${tool.name}.${name}`).toBe(answers[2]);
      }
    }
    // Lists and text arguments of market, directory, agents, ta, trending, check, ask and more.
    expect(tried).toBeGreaterThan(40);
    if (paying) expect(readdirSync(join(folder, "data"))).toContain("payments.jsonl");
    const sent = JSON.stringify(proxy.requests);
    expect(sent).not.toContain(MARKER);
    expect(sent).not.toContain(WALLET.slice(2));
    expect(stderr()).not.toContain(MARKER);
    expect(stderr()).not.toContain(WALLET.slice(2));
    // The ledger and the cache: what the server wrote to disk (nothing, keyed).
    for (const file of readdirSync(folder, { recursive: true, withFileTypes: true }))
      if (file.isFile() && !["id_ed25519", "wallet.key"].includes(file.name)) {
        const body = readFileSync(join(file.parentPath, file.name), "utf8");
        expect(body, file.name).not.toContain(MARKER);
        expect(body, file.name).not.toContain(WALLET.slice(2));
      }
  }, 120_000);
});

describe("tokenintel mcp: the stored key", () => {
  it("a key saved with auth login is masked in a tool's answer that quotes the request", async () => {
    const folder = servers.folder();
    const echo = await servers.stub((_req, res, seen) => {
      // A server that quotes the request it refused, key and all.
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ success: false, message: `bad request: ${seen.url} ${seen.headers["x-api-key"]}` }),
      );
    });
    const login = await run(["auth", "login", "--with-token", "--no-verify"], folder, {
      input: `${STORED_KEY}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    const { client, stderr } = await connect(folder, ["--base-url", echo.url, "mcp"], {});
    const result = await client.callTool({
      name: "market",
      arguments: { chain: "base", tickers: ["AIXBT"] },
    });
    expect(echo.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(echo.requests)).toContain(STORED_KEY);
    const text = JSON.stringify(result);
    expect(result.isError).toBe(true);
    expect(text).toMatch(/bad request/);
    expect(text).not.toContain(STORED_KEY);
    expect(text).not.toContain(encodeURIComponent(STORED_KEY));
    expect(text).not.toContain(Buffer.from(STORED_KEY).toString("base64").slice(0, 16));
    expect(stderr()).not.toContain(STORED_KEY);
  });
});
