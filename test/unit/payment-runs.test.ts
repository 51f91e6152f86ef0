import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, type ApiResponse, type PaymentHook } from "../../src/api/client.js";
import { PaymentSession } from "../../src/payment/session.js";
import { tempDir } from "../e2e/helpers.js";

// Runs that pay through one session (an MCP server's calls): one set of caps and books, and each
// payment in the ledger under the command line of the run that paid it, not the first run's.

const WALLET = generatePrivateKey();
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const offer402 = (): ApiResponse => ({
  status: 402,
  headers: {},
  body: {
    x402Version: 1,
    accepts: [
      {
        scheme: "exact",
        network: "base",
        maxAmountRequired: "5000",
        payTo: `0x${"ab".repeat(20)}`,
        maxTimeoutSeconds: 60,
        asset: USDC,
        extra: { name: "USD Coin", version: "2" },
      },
    ],
  },
  text: "",
  url: "http://127.0.0.1/v1/crypto-metainfo?chain=base",
});

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A session that began with `tokenintel mcp directory`, its ledger in a folder of its own. */
function sessionWithLedger(maxSpend: string) {
  const dir = tempDir("tokenintel-runs-");
  cleanups.push(dir.remove);
  mkdirSync(join(dir.path, "data"), { mode: 0o700 });
  const file = join(dir.path, "data", "payments.jsonl");
  const session = new PaymentSession(
    {
      walletKey: WALLET,
      maxPayment: "0.01",
      maxSpend,
      dryRun: false,
      ledger: { file, commandLine: "tokenintel mcp directory" },
    },
    { requests: undefined, exact: false },
    () => {},
    false,
  );
  const commands = () =>
    readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((l) => l.kind === "signed")
      .map((l) => l.command as string);
  return { session, commands, file };
}

describe("a payment session shared by runs", () => {
  it("records each payment under the command line of the run that paid it", async () => {
    const { session, commands } = sessionWithLedger("0.10");
    await session.pay(offer402(), "page 1");
    await session.forRun("tokenintel mcp history").pay!(offer402(), "AIXBT page 1");
    await session.forRun("tokenintel mcp directory").pay!(offer402(), "page 2");
    await session.pay(offer402(), "page 3", undefined, "tokenintel mcp check");
    expect(commands()).toEqual([
      "tokenintel mcp directory",
      "tokenintel mcp history",
      "tokenintel mcp directory",
      "tokenintel mcp check",
    ]);
    // The run that began the session pays through the session itself.
    expect(session.forRun("tokenintel mcp directory")).toBe(session);
  });

  it("keeps one set of books: --max-spend holds across the runs", async () => {
    const { session, commands } = sessionWithLedger("0.01");
    await session.forRun("tokenintel mcp history").pay!(offer402(), undefined);
    await session.forRun("tokenintel mcp directory").pay!(offer402(), undefined);
    await expect(session.forRun("tokenintel mcp check").pay!(offer402(), undefined)).rejects.toThrow(
      /over --max-spend 0\.01/,
    );
    expect(session.tally().signed).toBe(2);
    expect(commands()).toEqual(["tokenintel mcp history", "tokenintel mcp directory"]);
  });
});

describe("holders paying through one session (mcp --http's tokens)", () => {
  const alice = { name: "alice", maxSpend: { atomic: 10_000n, text: "0.01" } };
  const bob = { name: "bob", dailyCap: { atomic: 5000n, text: "0.005", source: "token bob" } };
  const holders = (file: string) =>
    readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((l) => l.kind === "signed")
      .map((l) => l.holder as string | undefined);

  it("each holder's max-spend and daily cap stop its own payments, not another's; each line names its holder", async () => {
    const { session, file } = sessionWithLedger("0.10");
    const pay = (holder: typeof alice | typeof bob | undefined) =>
      session.forRun("tokenintel mcp directory", holder).pay!(offer402(), undefined);
    await pay(alice);
    await pay(alice);
    await expect(pay(alice)).rejects.toThrow(
      "refusing to pay: 0.005 USDC more would bring what alice signed to 0.015 USDC, over its max-spend 0.01 by 0.005 USDC",
    );
    await pay(bob);
    await expect(pay(bob)).rejects.toThrow(/over the daily cap 0\.005 \(token bob\)/);
    // Neither holder's refusal took from the other, nor from the session's runs without one.
    await pay(undefined);
    expect(holders(file)).toEqual(["alice", "alice", "bob", undefined]);
  });

  it("the session's --max-spend still bounds every holder together", async () => {
    const { session } = sessionWithLedger("0.01");
    const big = { atomic: 1_000_000n, text: "1" };
    await session.forRun("tokenintel mcp directory", { name: "a", maxSpend: big }).pay!(
      offer402(),
      undefined,
    );
    await session.forRun("tokenintel mcp directory", { name: "b", maxSpend: big }).pay!(
      offer402(),
      undefined,
    );
    await expect(
      session.forRun("tokenintel mcp directory", { name: "c", maxSpend: big }).pay!(offer402(), undefined),
    ).rejects.toThrow(/over --max-spend 0\.01/);
  });
});

describe("ApiClient.withPayment", () => {
  it("answers a 402 through the hook it was given, sharing the client's limits", async () => {
    const server = createServer((req, res) => {
      const paid = req.headers["x-payment"] === "paid";
      res.writeHead(paid ? 200 : 402, { "content-type": "application/json" });
      res.end(JSON.stringify(paid ? { ok: true } : { x402Version: 1, accepts: [] }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => server.close());
    const hook = (name: string, calls: string[]): PaymentHook => ({
      pay: async (_res, label) => {
        calls.push(`${name} ${label}`);
        return { "x-payment": "paid" };
      },
      refusal: async () => {
        throw new Error("not refused here");
      },
    });
    const calls: string[] = [];
    const first = hook("first", calls);
    const shared = new ApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      timeoutMs: 2000,
      retries: 0,
      concurrency: 2,
      log: () => {},
      verbose: false,
      quiet: false,
      payment: first,
    });
    cleanups.push(() => void shared.close());
    const view = shared.withPayment(hook("second", calls));
    expect((await view.request("/v1/thing", { label: "page 1" })).body).toEqual({ ok: true });
    await shared.request("/v1/thing", { label: "page 2" });
    expect(calls).toEqual(["second page 1", "first page 2"]);
    expect(view.limiter).toBe(shared.limiter);
    expect(shared.withPayment(first)).toBe(shared);
  });
});
