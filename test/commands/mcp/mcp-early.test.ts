import { PassThrough } from "node:stream";
import {
  Client as ClientV2,
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { answerEarly, EARLY_WAITS, SDK_FACTS } from "../../../src/commands/mcp/early.js";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { run, start } from "../harness.js";
import { frame } from "../mcp-client.js";

// `tokenintel mcp` answers a 2025-era client's initialize and tools/list before the MCP SDK loads
// (src/commands/mcp/early.ts). The answers must be the SDK's own, word for word: each test here runs
// the server with the early answers on and off (TOKENINTEL_MCP_EARLY=0) and compares. Which answers
// were early is told by the server's "serving" line on stderr, which the SDK server writes once it
// has started: an early answer is written before it.

const WALLET = generatePrivateKey();
const servers = useServers();
neverShown(WALLET, WALLET.slice(2));
const EARLY_OFF = { TOKENINTEL_MCP_EARLY: "0" };

type Message = Record<string, unknown> & { id?: string | number | null };

const initialize = (protocolVersion: string, id: string | number = 1) =>
  frame({
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: { roots: {} }, clientInfo: { name: "t", version: "1" } },
  });
const initialized = frame({ method: "notifications/initialized" });
const toolsList = (id: string | number = 2) => frame({ id, method: "tools/list" });
const trending = (id: number) =>
  frame({ id, method: "tools/call", params: { name: "trending", arguments: { chain: "base", limit: 2 } } });

/** A server run in-process, each message it writes kept with whether the SDK server had started. */
function serve(args: string[], env: Record<string, string> = {}) {
  const started = start(args, servers.folder(), { env });
  const written: Array<{ message: Message; early: boolean }> = [];
  const write = started.stdout.write.bind(started.stdout);
  const find = (id: unknown) => written.find((w) => w.message.id === id);
  const server = {
    written,
    /** Called with each line the server writes. */
    onLine: undefined as ((line: string) => void) | undefined,
    send: (text: string) => started.stdin.write(text),
    /** The answer to request `id`, once it has come. */
    async answer(id: string | number): Promise<{ message: Message; early: boolean }> {
      for (const deadline = Date.now() + 10_000; !find(id) && Date.now() < deadline; )
        await new Promise((resolve) => setTimeout(resolve, 2));
      const found = find(id);
      if (!found) throw new Error(`no answer to ${id}: ${started.stderr()}`);
      return found;
    },
    ids: () => written.map((w) => w.message.id),
    /** Closes stdin: the exit code once the server has ended. */
    end: () => {
      started.stdin.end();
      return started.done;
    },
  };
  started.stdout.write = ((chunk: string | Buffer, ...rest: never[]) => {
    const early = !started.stderr().includes("serving");
    for (const line of String(chunk).split("\n"))
      if (line.trim()) {
        written.push({ message: JSON.parse(line), early });
        server.onLine?.(line);
      }
    return write(chunk, ...rest);
  }) as typeof started.stdout.write;
  started.stdout.resume();
  return server;
}

/** What a server writes for `script` (its lines, then stdin's end), and which answers were early. */
async function transcriptOf(args: string[], script: string, env: Record<string, string> = {}) {
  const server = serve(args, env);
  server.send(script);
  const code = await server.end();
  return {
    code,
    messages: server.written.map((w) => w.message),
    early: server.written.filter((w) => w.early),
  };
}

const MODES: Array<[string, string[], Record<string, string>]> = [
  ["not paying", ["--sandbox", "mcp"], {}],
  ["--pay --dry-run", ["--sandbox", "mcp", "--pay", "--dry-run"], {}],
  [
    "--pay with a wallet key",
    ["--sandbox", "mcp", "--pay", "--daily-cap", "1"],
    { TOKENINTEL_WALLET_KEY: WALLET },
  ],
];

describe("tokenintel mcp: initialize and tools/list answered before the SDK loads", () => {
  it("the SDK's 2025-era versions are the ones the early answers accept", () => {
    expect(SDK_FACTS.legacyVersions).toEqual(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < "2026-07-28"));
  });

  it.each(MODES)(
    "answers as the SDK does, %s, whatever version the client asks for",
    async (_, args, env) => {
      const versions = [...SUPPORTED_PROTOCOL_VERSIONS, "2026-07-28", "2099-01-01", "1.0", ""];
      for (const version of versions) {
        const sdk = serve(args, { ...env, ...EARLY_OFF });
        sdk.send(initialize(version) + initialized + toolsList());
        const fromSdk = [await sdk.answer(1), await sdk.answer(2)];
        expect(await sdk.end()).toBe(0);
        expect(fromSdk.map((a) => a.early)).toEqual([false, false]);

        const early = serve(args, env);
        // As a client does: tools/list once initialize is answered.
        early.send(initialize(version));
        await early.answer(1);
        early.send(initialized + toolsList());
        const answers = [await early.answer(1), await early.answer(2)];
        expect(await early.end()).toBe(0);
        expect(
          answers.map((a) => a.early),
          version,
        ).toEqual([true, true]);
        expect(answers.map((a) => a.message)).toEqual(fromSdk.map((a) => a.message));
        expect(early.ids()).toEqual([1, 2]);
      }
    },
  );

  it("a tools/call after tools/list, in the same write or after its answer, is the SDK's to answer", async () => {
    const together = serve(["--sandbox", "mcp"]);
    together.send(initialize("2025-06-18") + initialized + toolsList() + trending(3));
    const call = (await together.answer(3)).message as { result: { structuredContent: { count: number } } };
    expect(call.result.structuredContent.count).toBe(2);
    expect((await together.answer(2)).early).toBe(true);
    expect(await together.end()).toBe(0);
    expect(together.ids()).toEqual([1, 2, 3]);

    const after = serve(["--sandbox", "mcp"]);
    after.send(initialize("2025-11-25"));
    await after.answer(1);
    after.send(initialized + toolsList());
    await after.answer(2);
    after.send(trending(3));
    expect(((await after.answer(3)).message as typeof call).result.structuredContent.count).toBe(2);
    // A request reusing an early answer's id later is answered: only the SDK's first answer to it is dropped.
    after.send(frame({ id: 1, method: "ping" }));
    expect(await after.end()).toBe(0);
    expect(after.ids()).toEqual([1, 2, 3, 1]);
    expect(after.written.at(-1)?.message).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("what it does not answer, the SDK answers exactly as without it, in order", async () => {
    const discover = frame({
      id: 1,
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    });
    const claim = frame({
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
      },
    });
    const custom = (capabilities: Record<string, unknown>, info: Record<string, unknown> = {}) =>
      frame({
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities,
          clientInfo: { name: "t", version: "1", ...info },
        },
      });
    const cases: Array<[string, string, number]> = [
      ["a line that is not JSON first", `not json\n${initialize("2025-06-18")}${toolsList()}`, 0],
      ["ping first", frame({ id: 9, method: "ping" }) + initialize("2025-06-18") + toolsList(), 0],
      ["a tools/call first", trending(3) + initialize("2025-06-18"), 0],
      ["server/discover", discover + toolsList(), 0],
      ["initialize with a 2026-07-28 claim", claim + toolsList(), 0],
      ["initialize with an id that is a fraction", initialize("2025-06-18", 1.5) + toolsList(), 0],
      [
        "initialize, then ping",
        initialize("2025-06-18") + frame({ id: 2, method: "ping" }) + toolsList(3),
        1,
      ],
      [
        "tools/list with a cursor",
        initialize("2025-06-18") + frame({ id: 2, method: "tools/list", params: { cursor: "x" } }),
        1,
      ],
      ["tools/list with initialize's id", initialize("2025-06-18") + toolsList(1), 1],
      ["two initializes", initialize("2025-06-18") + initialize("2025-03-26", 2) + toolsList(3), 1],
      [
        "a client that says what more it can do",
        custom(
          { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} }, experimental: { x: {} } },
          { title: "T" },
        ) + toolsList(),
        2,
      ],
      ["roots that the SDK refuses", custom({ roots: { listChanged: "yes" } }) + toolsList(), 0],
      ["client info without a version", custom({}, { version: undefined }) + toolsList(), 0],
      ["a client info key the SDK does not know", custom({}, { vendor: "x" }) + toolsList(), 0],
    ];
    for (const [what, script, early] of cases) {
      const off = await transcriptOf(["--sandbox", "mcp"], script, EARLY_OFF);
      const on = await transcriptOf(["--sandbox", "mcp"], script);
      expect(on.code, what).toBe(0);
      expect(on.messages, what).toEqual(off.messages);
      expect(on.early.length, what).toBe(early);
      const ids = on.messages.map((m) => JSON.stringify(m.id));
      expect(new Set(ids).size, `${what}: an id answered twice`).toBe(
        ids.length - (what === "tools/list with initialize's id" ? 1 : 0),
      );
    }
  });
});

/** The 2.x SDK client's side of the stdio framing, over an in-process server's stdin and stdout. */
class Pipes implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly server: ReturnType<typeof serve>) {}

  async start(): Promise<void> {
    this.server.onLine = (line) => {
      this.buffer.append(Buffer.from(`${line}\n`));
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    };
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.server.send(serializeMessage(message));
  }

  async close(): Promise<void> {
    await this.server.end();
    this.onclose?.();
  }
}

describe("tokenintel mcp: what the early answers leave alone", () => {
  it("a 2026-07-28 client (server/discover) is served by the SDK from its first message", async () => {
    const server = serve(["--sandbox", "mcp"]);
    const client = new ClientV2(
      { name: "v2", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new Pipes(server));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(11);
    await client.close();
    expect(server.written.length).toBeGreaterThan(1);
    expect(server.written.filter((w) => w.early)).toEqual([]);
  });

  it("a client that speaks after the early wait is answered by the SDK", async () => {
    const server = serve(["--sandbox", "mcp"]);
    await new Promise((resolve) => setTimeout(resolve, EARLY_WAITS.firstLineMs + 100));
    server.send(initialize("2025-06-18") + initialized + toolsList());
    const answers = [await server.answer(1), await server.answer(2)];
    expect(answers.map((a) => a.early)).toEqual([false, false]);
    expect((answers[1]!.message.result as { tools: unknown[] }).tools).toHaveLength(11);
    expect(await server.end()).toBe(0);
  });

  it("a bad flag still ends it at once with exit 2, before any answer", async () => {
    // Checked as the flags are parsed, and as the command runs (the payment flags together).
    const cases: Array<[string[], RegExp]> = [
      [["--max-spend", "abc"], /--max-spend: expected an amount/],
      [["--pay"], /--pay needs a wallet key/],
      [["--daily-cap", "1"], /go with --pay/],
    ];
    for (const [flags, said] of cases) {
      const r = await run(["--sandbox", "mcp", ...flags], servers.folder(), {
        input: initialize("2025-06-18") + initialized + toolsList(),
      });
      expect(r.code, flags.join(" ")).toBe(2);
      expect(r.stdout, flags.join(" ")).toBe("");
      expect(r.stderr).toMatch(said);
    }
  });

  it("stdin ending right after initialize, or after initialized, ends it cleanly with one answer", async () => {
    for (const script of [initialize("2025-06-18"), initialize("2025-06-18") + initialized]) {
      const r = await run(["--sandbox", "mcp"], servers.folder(), { input: script });
      expect(r.code, r.stderr).toBe(0);
      const answers = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(answers.map((a) => a.id)).toEqual([1]);
      expect(answers[0].result.protocolVersion).toBe("2025-06-18");
    }
  });
});

describe("answerEarly: when it stops reading", () => {
  const reader = (waits = { firstLineMs: 10_000, nextLineMs: 10_000 }) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const began = Date.now();
    const read = answerEarly(stdin, stdout, [], false, waits).then((r) => ({ ...r, ms: Date.now() - began }));
    // Everything written, however the stream splits it into chunks (a large answer may still sit in
    // the writable side's buffer when the read resolves, as on Node 26).
    const chunks: Buffer[] = [];
    stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    const written = () => Buffer.concat(chunks).toString();
    return { stdin, read, written };
  };

  it("at tools/list's answer, leaving stdin paused and every byte read, in order, for the wire", async () => {
    const { stdin, read, written } = reader();
    const script = initialize("2025-06-18") + initialized + toolsList() + trending(3).slice(0, 20);
    stdin.write(script);
    const r = await read;
    expect(r.answered).toEqual([1, 2]);
    expect(r.bytes.toString()).toBe(script);
    expect(stdin.isPaused()).toBe(true);
    expect(stdin.listenerCount("data")).toBe(0);
    expect(
      written()
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual([1, 2]);
  });

  it("at once at a line it does not answer, a line too long, stdin's end or failure", async () => {
    const cases: Array<[string, (stdin: PassThrough) => void, unknown[]]> = [
      ["a call", (s) => s.write(trending(3)), []],
      ["server/discover", (s) => s.write(frame({ id: 1, method: "server/discover", params: {} })), []],
      [
        "ping after initialize",
        (s) => s.write(initialize("2025-06-18") + frame({ id: 2, method: "ping" })),
        [1],
      ],
      ["initialized first", (s) => s.write(initialized), []],
      ["a half line of 70 KB", (s) => s.write(`{"x":"${"y".repeat(70_000)}`), []],
      ["stdin's end", (s) => s.end(initialize("2025-06-18")), [1]],
      ["stdin's failure", (s) => s.destroy(new Error("gone")), []],
    ];
    for (const [what, act, answered] of cases) {
      const { stdin, read } = reader();
      act(stdin);
      const r = await read;
      expect(r.answered, what).toEqual(answered);
      expect(r.ms, what).toBeLessThan(2_000);
      if (what === "stdin's failure") expect(r.error?.message).toBe("gone");
    }
  });

  it("when no line comes in time: the first within firstLineMs, each next within nextLineMs", async () => {
    const silent = reader({ firstLineMs: 60, nextLineMs: 10_000 });
    const r = await silent.read;
    expect(r.answered).toEqual([]);
    expect(r.ms).toBeGreaterThanOrEqual(55);
    expect(r.ms).toBeLessThan(2_000);

    const slow = reader({ firstLineMs: 10_000, nextLineMs: 40 });
    slow.stdin.write(initialize("2025-06-18"));
    const after = await slow.read;
    expect(after.answered).toEqual([1]);
    expect(after.ms).toBeLessThan(2_000);
  });
});
