import { type StdioOptions, spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { run } from "../../commands/harness.js";
import { neverShown, useServers } from "../fixtures.js";
import { BIN, baseEnv, run as runBinary } from "../helpers.js";
import { type SeenRequest, sendJson } from "../hostile-server.js";

// The payment ledger and the daily cap. Runs one after another are in-process (run());
// runs at once, a clock shifted in the process, Ctrl-C and kill -9 are the built binary's, each its own
// process. Paid runs use a throwaway wallet against the sandbox (which verifies and settles on a simulated
// chain) or against hostile servers; each test has its own config folder, and so its own data folder and
// ledger.

const WALLET = generatePrivateKey();
const PAYER = privateKeyToAccount(WALLET).address;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = `0x${"ab".repeat(20)}`;
const withKey = { TOKENINTEL_WALLET_KEY: WALLET };
const servers = useServers();
neverShown(WALLET.slice(2));

/** A config folder of its own; its ledger is data/payments.jsonl inside (helpers.ts: baseEnv). */
function home(): { config: string; ledger: string } {
  const config = servers.folder("tokenintel-ledger-");
  return { config, ledger: join(config, "data", "payments.jsonl") };
}

const sandbox = servers.sandbox;

/** A paid directory run whose paid request the server never answers: `paid` once it has been sent. */
async function paidRunThatWaits(stdio: StdioOptions) {
  let sawPayment: () => void = () => {};
  const paid = new Promise<void>((resolve) => (sawPayment = resolve));
  const server = await servers.stub((req, res) => {
    if (req.headers["x-payment"])
      sawPayment(); // and never answer
    else offer402(res);
  });
  const { config, ledger } = home();
  const child = spawn(
    process.execPath,
    [BIN, "--base-url", server.url, "directory", "-c", "base", "--pay", "--page", "1"],
    { env: { ...baseEnv(config), ...withKey }, stdio },
  );
  const ended = new Promise((resolve) => child.on("close", resolve));
  return { child, paid, ended, config, ledger, server };
}

interface Line {
  kind: "signed" | "outcome";
  at: string;
  nonce: string;
  outcome?: string;
  transaction?: string;
  payer?: string;
  [key: string]: unknown;
}

/** Every line of the ledger, each of which must be whole JSON. */
function ledgerLines(file: string): Line[] {
  const text = readFileSync(file, "utf8");
  expect(text.endsWith("\n"), "the ledger ends with a whole line").toBe(true);
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);
}

const signedLines = (file: string) => ledgerLines(file).filter((l) => l.kind === "signed");
const sumSigned = (lines: Line[]) => lines.reduce((sum, l) => sum + BigInt(l.atomic as string), 0n);
const paymentHeaderOf = (seen: SeenRequest) => seen.headers["x-payment"] ?? seen.headers["payment-signature"];
/** The authorization inside a payment header the server received. */
function nonceOf(seen: SeenRequest): string | undefined {
  const header = paymentHeaderOf(seen);
  if (typeof header !== "string") return undefined;
  const doc = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  return doc.payload.authorization.nonce as string;
}

function v1Offer(): Record<string, unknown> {
  return {
    scheme: "exact",
    network: "base",
    maxAmountRequired: "5000",
    resource: "http://127.0.0.1/v1/crypto-metainfo",
    description: "one page",
    mimeType: "application/json",
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
    asset: USDC,
    extra: { name: "USD Coin", version: "2" },
  };
}
const offer402 = (res: ServerResponse, error = "X-PAYMENT header is required") =>
  sendJson(res, { x402Version: 1, error, accepts: [v1Offer()] }, 402);

/** A v1 settlement header naming `transaction`, as a facilitator-backed server sends it. */
const settlementHeader = (transaction: string) => ({
  "x-payment-response": Buffer.from(
    JSON.stringify({ success: true, transaction, network: "base", payer: PAYER }),
  ).toString("base64"),
});

describe("a paid run and `tokenintel payments`", () => {
  it("appends a signed line before each payment and its settlement after; payments shows them exactly", async () => {
    const s = await sandbox({ x402Version: 2 });
    const { config, ledger } = home();
    const cli = (args: string[], env: Record<string, string> = {}) =>
      run(["--base-url", s.url, ...args], config, { env: { ...withKey, ...env } });
    const paid = await cli([
      "--api-key",
      "ti_ledger_secret_0042",
      "directory",
      "-c",
      "base",
      "--limit",
      "250",
      "--pay",
      "--json",
    ]);
    expect(paid.code, paid.stderr).toBe(0);
    expect(s.stats.payments).toEqual({ accepted: 3, refused: 0 });

    expect(statSync(ledger).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, "data")).mode & 0o777).toBe(0o700);
    const lines = ledgerLines(ledger);
    expect(lines.map((l) => l.kind)).toEqual(["signed", "outcome", "signed", "outcome", "signed", "outcome"]);
    const text = readFileSync(ledger, "utf8");
    expect(text).not.toContain("ti_ledger_secret_0042");
    expect(text).not.toContain(WALLET.slice(2));
    for (const [i, signed] of lines.filter((l) => l.kind === "signed").entries()) {
      expect(signed).toMatchObject({
        command: `tokenintel --base-url ${s.url} --api-key *** directory -c base --limit 250 --pay --json`,
        endpoint: `${s.url}/v1/crypto-metainfo?chain=base&page=${i + 1}`,
        label: `page ${i + 1}`,
        network: "base",
        networkId: "eip155:8453",
        asset: USDC,
        symbol: "USDC",
        amount: "0.005000",
        atomic: "5000",
        payTo: "0x5A1db0000000000000000000000000000000bEeF",
        from: PAYER,
        x402Version: 2,
      });
      expect(signed.nonce).toMatch(/^0x[0-9a-f]{64}$/);
      // The validity window as signed: it ends at most 300 s after the line was written.
      const ends = BigInt(signed.validBefore as string) - BigInt(Math.floor(Date.parse(signed.at) / 1000));
      expect(ends > 0n && ends <= 301n, `ends ${ends} s after`).toBe(true);
      expect(BigInt(signed.validAfter as string) < BigInt(signed.validBefore as string)).toBe(true);
      const outcome = lines.find((l) => l.kind === "outcome" && l.nonce === signed.nonce);
      expect(outcome).toMatchObject({ outcome: "settled", payer: PAYER });
      expect(outcome?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect(Date.parse(outcome!.at)).toBeGreaterThanOrEqual(Date.parse(signed.at));
    }

    // Into a pipe JSON, as every command writes; the table on a terminal or with -o table.
    const piped = await cli(["payments"]);
    expect(JSON.parse(piped.stdout)).toHaveLength(3);
    const table = await cli(["payments", "-o", "table"]);
    expect(table.code, table.stderr).toBe(0);
    const rows = table.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^when \(UTC\) +what +network +amount +to +outcome$/);
    expect(rows).toHaveLength(4);
    for (const [i, row] of rows.slice(1).entries())
      expect(row).toMatch(
        new RegExp(
          `page ${i + 1}: /v1/crypto-metainfo\\?chain=base&page=${i + 1} +base +0\\.005000 USDC +0x5A1d…bEeF +settled 0x[0-9a-f]{4}…[0-9a-f]{4}$`,
        ),
      );

    const json = await cli(["payments", "--json"]);
    const records = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(records.map((r) => [r.amount, r.atomic, r.outcome])).toEqual([
      ["0.005000", "5000", "settled"],
      ["0.005000", "5000", "settled"],
      ["0.005000", "5000", "settled"],
    ]);
    expect(records.map((r) => r.transaction)).toEqual(
      lines.filter((l) => l.kind === "outcome").map((l) => l.transaction),
    );

    // A payment three days old (another run's), and one from a run killed before its answer.
    const old = {
      ...lines[0]!,
      at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      nonce: `0x${"0d".repeat(32)}`,
      amount: "0.250000",
      atomic: "250000",
    };
    appendFileSync(ledger, `${JSON.stringify(old)}\n`);
    const byDay = await cli(["payments", "--by-day", "--json"]);
    expect(byDay.code, byDay.stderr).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(JSON.parse(byDay.stdout)).toEqual([
      {
        day: old.at.slice(0, 10),
        network: "base",
        symbol: "USDC",
        payments: 1,
        signed: "0.250000",
        settled: "0.000000",
      },
      { day: today, network: "base", symbol: "USDC", payments: 3, signed: "0.015000", settled: "0.015000" },
    ]);
    const count = async (since: string) =>
      (JSON.parse((await cli(["payments", "--since", since, "--json"])).stdout) as unknown[]).length;
    expect(await count("24h")).toBe(3);
    expect(await count("7d")).toBe(4);
    expect(await count("2020-01-01")).toBe(4);
    expect(await count(new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10))).toBe(0);
    const unanswered = JSON.parse((await cli(["payments", "--since", "7d", "--json"])).stdout)[3];
    expect(unanswered).toMatchObject({ amount: "0.250000", outcome: "unknown" });
    // The one grammar of durations: a year and months are read.
    expect(await count("1y")).toBe(4);
    expect(await count("6mo")).toBe(4);
    expect(await count("2w")).toBe(4);
    for (const bad of ["yesterday", "24x"]) {
      const r = await cli(["payments", "--since", bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `tokenintel: --since: expected a span such as 30s, 10m, 2h, 7d, 2w, 6mo or 1y (m is minutes, mo months), or a date (YYYY-MM-DD) or an ISO time, got "${bad}"\n`,
      );
    }
    const notADay = await cli(["payments", "--since", "2026-02-30"]);
    expect(notADay.code).toBe(2);
    expect(notADay.stderr).toBe(
      'tokenintel: --since: "2026-02-30" is not a day of the calendar (YYYY-MM-DD)\n',
    );
    const csv = await cli(["payments", "--since", "24h", "--csv"]);
    const csvRows = csv.stdout.trim().split("\n");
    expect(csvRows[0]).toMatch(/^at,network,symbol,amount,payTo,outcome,transaction,/);
    expect(csvRows.slice(1).map((r) => r.split(",").slice(1, 6).join(","))).toEqual(
      Array(3).fill("base,USDC,0.005000,0x5A1db0000000000000000000000000000000bEeF,settled"),
    );

    // The ledger is not a cache: `cache clear` leaves it as it was.
    const before = readFileSync(ledger, "utf8");
    const cleared = await cli(["cache", "clear"], { TOKENINTEL_CACHE_DIR: join(config, "cache") });
    expect(cleared.code).toBe(0);
    expect(readFileSync(ledger, "utf8")).toBe(before);
  }, 60_000);
});

describe("the daily cap", () => {
  it("stops the payment that would pass it: exit 5, the pages paid for printed, and when it frees up", async () => {
    const s = await sandbox();
    const { config, ledger } = home();
    const r = await run(
      ["--base-url", s.url, "directory", "-c", "base", "--pay", "--daily-cap", "0.012", "--ndjson"],
      config,
      {
        env: withKey,
      },
    );
    expect(r.code, r.stderr).toBe(5);
    // Two pages fit under 0.012 at 0.005 each; their records are the user's.
    expect(r.stdout.trim().split("\n")).toHaveLength(200);
    expect(s.stats.payments.accepted).toBe(2);
    expect(r.stderr).toMatch(
      /refusing to pay: 0\.005 USDC more would bring the last 24 hours' signed total to 0\.015 USDC, over the daily cap 0\.012 \(--daily-cap\) by 0\.003 USDC; the cap frees up at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in 2[34] h( \d+ min)?\)/,
    );
    expect(sumSigned(signedLines(ledger))).toBe(10_000n);

    // The next run counts the first one's payments, from the environment's cap as from the flag's.
    const next = await run(["--base-url", s.url, "directory", "-c", "base", "--pay", "--page", "1"], config, {
      env: { ...withKey, TOKENINTEL_DAILY_CAP: "0.014" },
    });
    expect(next.code).toBe(5);
    expect(next.stdout).toBe("");
    expect(next.stderr).toContain("over the daily cap 0.014 (TOKENINTEL_DAILY_CAP) by 0.001 USDC");
    expect(s.stats.payments.accepted).toBe(2);

    // A dry run says what the cap leaves, from the same ledger, and signs nothing.
    const dry = await run(
      ["--base-url", s.url, "directory", "-c", "base", "--dry-run", "--daily-cap", "0.03"],
      config,
      {
        env: withKey,
      },
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      "daily cap 0.03 (--daily-cap): 0.01 USDC signed in the last 24 h (payment ledger), 0.02 USDC left, room for 4 more payments at this price",
    );
    expect(sumSigned(signedLines(ledger))).toBe(10_000n);
  }, 30_000);

  it("holds across runs at once: six runs under a cap of three payments sign three in all", async () => {
    const s = await sandbox();
    const { config, ledger } = home();
    const runs = await Promise.all(
      Array.from({ length: 6 }, () =>
        runBinary(
          ["--base-url", s.url, "directory", "-c", "base", "--pay", "--page", "1", "--json"],
          config,
          {
            env: { ...withKey, TOKENINTEL_DAILY_CAP: "0.015" },
          },
        ),
      ),
    );
    const codes = runs.map((r) => r.code).sort();
    expect(codes, runs.map((r) => r.stderr).join("\n")).toEqual([0, 0, 0, 5, 5, 5]);
    expect(s.stats.payments.accepted).toBe(3);
    expect(signedLines(ledger)).toHaveLength(3);
    expect(sumSigned(signedLines(ledger))).toBe(15_000n);
  }, 30_000);

  it("a cap that cannot be read is exit 2 naming where it came from", async () => {
    const s = await sandbox();
    const { config } = home();
    const bad = await run(["--base-url", s.url, "directory", "-c", "base", "--pay", "--page", "1"], config, {
      env: { ...withKey, TOKENINTEL_DAILY_CAP: "1,00" },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^tokenintel: TOKENINTEL_DAILY_CAP: expected an amount/);
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
  });
});

describe("outcomes the server leaves open", () => {
  const pay = (url: string, config: string) =>
    run(["--base-url", url, "directory", "-c", "base", "--pay", "--page", "1", "--json"], config, {
      env: withKey,
    });

  it("a v1 server's X-PAYMENT-RESPONSE names the transaction and payer of a settled payment", async () => {
    const tx = `0x${"7e".repeat(32)}`;
    const server = await servers.stub((req, res) => {
      if (req.headers["x-payment"]) sendJson(res, { success: true, data: [] }, 200, settlementHeader(tx));
      else offer402(res);
    });
    const { config, ledger } = home();
    const r = await pay(server.url, config);
    expect(r.code, r.stderr).toBe(0);
    expect(ledgerLines(ledger)[1]).toMatchObject({
      kind: "outcome",
      outcome: "settled",
      transaction: tx,
      payer: PAYER,
    });
  });

  it("a payment the server refuses is recorded as refused, with its reason", async () => {
    const server = await servers.stub((_req, res) => offer402(res, "insufficient_funds"));
    const { config, ledger } = home();
    const r = await pay(server.url, config);
    expect(r.code).toBe(5);
    const lines = ledgerLines(ledger);
    expect(lines.map((l) => [l.kind, l.outcome])).toEqual([
      ["signed", undefined],
      ["outcome", "refused"],
    ]);
    expect(lines[1]).toMatchObject({ nonce: lines[0]!.nonce, reason: "insufficient_funds" });
    expect(nonceOf(server.requests[1]!)).toBe(lines[0]!.nonce);
  });

  it("four pages paid at once and all refused: four signed lines, four refusals, none torn or mixed", async () => {
    const server = await servers.stub((_req, res) => offer402(res, "payment_expired"));
    const { config, ledger } = home();
    // 120 addresses: four 30-item requests in flight at once, each paid, each refused.
    const list = Array.from({ length: 120 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const r = await run(
      ["--base-url", server.url, "directory", "-c", "base", "--addresses", list.join(","), "--pay", "--json"],
      config,
      { env: withKey },
    );
    expect(r.code).toBe(5);
    const paid = server.requests.filter((q) => paymentHeaderOf(q));
    expect(paid).toHaveLength(4);
    const lines = ledgerLines(ledger);
    const signed = lines.filter((l) => l.kind === "signed");
    const refused = lines.filter((l) => l.kind === "outcome");
    expect(signed).toHaveLength(4);
    expect(new Set(signed.map((l) => l.nonce)).size).toBe(4);
    expect(refused.map((l) => [l.outcome, l.reason])).toEqual(Array(4).fill(["refused", "payment_expired"]));
    expect(new Set(refused.map((l) => l.nonce))).toEqual(new Set(signed.map((l) => l.nonce)));
    expect(new Set(paid.map(nonceOf))).toEqual(new Set(signed.map((l) => l.nonce)));
  });

  it("a connection killed after the payment was sent is recorded as unknown", async () => {
    const server = await servers.stub((req, res) => {
      if (req.headers["x-payment"]) req.socket.destroy();
      else offer402(res);
    });
    const { config, ledger } = home();
    const r = await pay(server.url, config);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("the connection was closed before the answer was complete");
    // A retry carries the same authorization (one nonce: it can be cashed once), never a new one.
    const sent = server.requests.filter((q) => paymentHeaderOf(q)).map(nonceOf);
    expect(sent.length).toBeGreaterThan(1);
    expect(new Set(sent).size).toBe(1);
    const lines = ledgerLines(ledger);
    expect(lines.map((l) => [l.kind, l.outcome])).toEqual([
      ["signed", undefined],
      ["outcome", "unknown"],
    ]);
    const shown = await run(["payments", "--json"], config);
    expect(JSON.parse(shown.stdout)).toMatchObject([{ outcome: "unknown", amount: "0.005000" }]);
  });

  it("a payment sent again after a lost answer, then refused as used, is unknown, not refused", async () => {
    // The server takes the payment and the answer is cut off; the same authorization sent again
    // is refused as already used. It may have been cashed: the ledger must not say refused.
    let paidAttempts = 0;
    const server = await servers.stub((req, res) => {
      if (!req.headers["x-payment"]) return offer402(res);
      if (++paidAttempts === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(402, { "content-type": "application/json" });
      res.end(JSON.stringify({ x402Version: 1, error: "invalid_exact_evm_nonce_used", accepts: [] }));
    });
    const { config, ledger } = home();
    const r = await pay(server.url, config);
    expect(r.code).not.toBe(0);
    expect(paidAttempts).toBe(2);
    const lines = ledgerLines(ledger);
    expect(lines.map((l) => [l.kind, l.outcome])).toEqual([
      ["signed", undefined],
      ["outcome", "unknown"],
    ]);
    expect(lines[1]!.reason).toMatch(/an answer was lost, and the same payment sent again was refused/);
    expect(JSON.parse((await run(["payments", "--json"], config)).stdout)).toMatchObject([
      { outcome: "unknown" },
    ]);
  });

  it("check --pay pays for no page past the end: a listing with no page count is walked one page at a time", async () => {
    // 30 tickers, a full page of 30 and no page count: page 2 (empty) tells the end. Speculating
    // four pages ahead, as with a key, paid for pages 3 to 5 of both endpoints too.
    const server = await servers.stub((req, res) => {
      if (!req.headers["x-payment"]) return offer402(res);
      const url = new URL(req.url ?? "/", "http://x");
      const page = Number(url.searchParams.get("page") ?? "1");
      const count = page === 1 ? 30 : 0;
      const data = Array.from({ length: count }, (_, i) => ({
        id: `t${i}`,
        token_info: { symbol: `T${i}` },
      }));
      sendJson(res, { success: true, data }, 200);
    });
    const { config } = home();
    const tickers = Array.from({ length: 30 }, (_, i) => `T${i}`).join(",");
    const r = await run(
      [
        "--base-url",
        server.url,
        "check",
        "-c",
        "base",
        "--tickers",
        tickers,
        "--pay",
        "--max-spend",
        "1",
        "--json",
      ],
      config,
      { env: withKey },
    );
    expect(r.code, r.stderr).toBe(0);
    const paid = server.requests.filter((q) => paymentHeaderOf(q)).map((q) => new URL(q.url, "http://x"));
    expect(paid.map((u) => `${u.pathname} ${u.searchParams.get("page") ?? "1"}`).sort()).toEqual([
      "/v1/agents 1",
      "/v1/agents 2",
      "/v1/crypto-market/ 1",
      "/v1/crypto-market/ 2",
    ]);
  });

  it("pages are paid in page order: a cap runs out at the first page it cannot pay, nothing paid after it", async () => {
    // Page 2's offer comes late, so page 3's 402 is in first: paid in the order offers came, page 3
    // took the cap's last room, page 2 was refused, and pages 3-5, paid, were thrown away.
    const server = await servers.stub(async (req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
      if (!req.headers["x-payment"]) {
        if (page === 2) await new Promise((resolve) => setTimeout(resolve, 300));
        return offer402(res);
      }
      const data = Array.from({ length: 30 }, (_, i) => ({ id: `p${page}-${i}` }));
      sendJson(res, { success: true, data, meta: { pagination: { page, pageSize: 30, pageCount: 8 } } }, 200);
    });
    const { config, ledger } = home();
    const r = await run(
      [
        "--base-url",
        server.url,
        "directory",
        "-c",
        "base",
        "--pay",
        "--max-pages",
        "8",
        "--max-spend",
        "0.015",
        "--json",
      ],
      config,
      { env: withKey },
    );
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/over --max-spend 0\.015/);
    const labels = ledgerLines(ledger)
      .filter((l) => l.kind === "signed")
      .map((l) => l.label);
    expect(labels).toEqual(["page 1", "page 2", "page 3"]);
    // Every page paid for is printed.
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(90);
  });

  it("--sandbox payments go to a ledger of their own: never in the real one, never counted by the real cap", async () => {
    const { config, ledger } = home();
    for (let i = 0; i < 3; i++) {
      const r = await run(
        ["--sandbox", "directory", "-c", "base", "--pay", "--page", "1", "--json"],
        config,
        {
          env: withKey,
        },
      );
      expect(r.code, r.stderr).toBe(0);
    }
    expect(existsSync(ledger)).toBe(false);
    const sandboxLedger = join(config, "data", "payments-sandbox.jsonl");
    expect(ledgerLines(sandboxLedger).filter((l) => l.kind === "signed")).toHaveLength(3);
    expect(JSON.parse((await run(["payments", "--json"], config)).stdout)).toEqual([]);
    const shown = await run(["--sandbox", "payments", "--json"], config);
    expect((JSON.parse(shown.stdout) as unknown[]).length).toBe(3);
    expect(shown.stderr).toContain("the sandbox's payments (--sandbox), apart from the real ledger");
    // A real run under a cap with room for two pays two: the sandbox's three are not counted.
    const s = await sandbox();
    const real = await run(
      [
        "--base-url",
        s.url,
        "directory",
        "-c",
        "base",
        "--pay",
        "--daily-cap",
        "0.01",
        "--max-pages",
        "3",
        "--json",
      ],
      config,
      { env: withKey },
    );
    expect(real.stderr).toMatch(/paid 2 requests/);
  });

  it("Ctrl-C while a paid request waits: the summary says the payment may still be settled, as the ledger does", async () => {
    const { child, paid, ended, ledger } = await paidRunThatWaits(["ignore", "ignore", "pipe"]);
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d) => (stderr += d));
    await paid;
    child.kill("SIGINT");
    expect(await ended).toBe(130);
    expect(stderr).toContain(
      "1 more signed but not accepted, 0.005 USDC, 0.005 USDC of it sent with no answer read: it may still be settled until it expires ('tokenintel payments' lists it as unknown)",
    );
    expect(ledgerLines(ledger).map((l) => [l.kind, l.outcome])).toEqual([
      ["signed", undefined],
      ["outcome", "unknown"],
    ]);
  });

  it("kill -9 after the payment left: its signed line is whole, shown as unknown; a torn line is passed over", async () => {
    const { child, paid, ended, config, ledger, server } = await paidRunThatWaits("ignore");
    await paid;
    child.kill("SIGKILL");
    await ended;
    const lines = ledgerLines(ledger);
    expect(lines.map((l) => l.kind)).toEqual(["signed"]);
    expect(nonceOf(server.requests[1]!)).toBe(lines[0]!.nonce);

    // A line torn by a crash mid-write: the next line starts on a line of its own, and `payments`
    // shows every whole line and says one was left out.
    appendFileSync(ledger, '{"v":1,"kind":"signed","at":"2026-');
    const s = await sandbox();
    const next = await run(
      ["--base-url", s.url, "directory", "-c", "base", "--pay", "--page", "1", "--json"],
      config,
      {
        env: withKey,
      },
    );
    expect(next.code, next.stderr).toBe(0);
    const text = readFileSync(ledger, "utf8").split("\n");
    expect(text.filter((l) => l === '{"v":1,"kind":"signed","at":"2026-')).toHaveLength(1);
    expect(text.filter((l) => l.includes('"kind":"signed"'))).toHaveLength(3);
    const shown = await run(["payments", "--json"], config);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as Array<{ outcome: string }>).map((p) => p.outcome)).toEqual([
      "unknown",
      "settled",
    ]);
    expect(shown.stderr).toContain("1 line of the payment ledger");
  });

  it("a ledger that cannot be written stops the payment before it is sent", async () => {
    const server = await servers.stub((_req, res) => offer402(res));
    const { config, ledger } = home();
    mkdirSync(join(config, "data"), { mode: 0o700 });
    // Another's planted link where the ledger goes: never written through, so nothing is paid.
    symlinkSync("/tmp/elsewhere-ledger", ledger);
    const r = await pay(server.url, config);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(ledger);
    expect(server.requests.filter((q) => paymentHeaderOf(q))).toHaveLength(0);
    expect(existsSync("/tmp/elsewhere-ledger")).toBe(false);
  });
});

describe("the daily cap counts everything it signed", () => {
  /** A server that offers one page for 0.005 USDC and answers a paid request with an empty page. */
  const paidStub = () =>
    servers.stub((req, res) => {
      if (req.headers["x-payment"]) sendJson(res, { success: true, data: [] });
      else offer402(res);
    });
  const paidRequests = (server: { requests: SeenRequest[] }) =>
    server.requests.filter((q) => paymentHeaderOf(q)).length;
  const payOnce = (
    url: string,
    config: string,
    cap: string,
    env: Record<string, string> = {},
    runner = run,
  ) =>
    runner(
      ["--base-url", url, "directory", "-c", "base", "--pay", "--page", "1", "--daily-cap", cap, "--json"],
      config,
      {
        env: { ...withKey, ...env },
      },
    );
  /** A whole signed line as tokenintel writes it, dated `at`, for 0.005 USDC. */
  const signedLine = (at: number, fields: Record<string, unknown> = {}) => ({
    v: 1,
    kind: "signed",
    at: new Date(at).toISOString(),
    command: "tokenintel directory --pay",
    endpoint: "http://127.0.0.1/v1/crypto-metainfo",
    network: "base",
    networkId: "base",
    asset: USDC,
    symbol: "USDC",
    amount: "0.005000",
    atomic: "5000",
    payTo: PAY_TO,
    from: PAYER,
    nonce: `0x${Math.random().toString(16).slice(2).padEnd(64, "0")}`,
    validAfter: "0",
    validBefore: "1",
    x402Version: 1,
    ...fields,
  });
  const writeLedger = (file: string, text: string) => {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    appendFileSync(file, text, { mode: 0o600 });
  };
  const shownPayments = async (config: string) => {
    const shown = await run(["payments", "--json"], config);
    expect(shown.code, shown.stderr).toBe(0);
    return {
      records: JSON.parse(shown.stdout) as Array<{ atomic: string; command: string }>,
      stderr: shown.stderr,
    };
  };

  it("a long command line is written bounded and counted: 100 addresses under room for one sign one", async () => {
    const server = await paidStub();
    const { config, ledger } = home();
    const list = Array.from({ length: 100 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const r = await run(
      [
        "--base-url",
        server.url,
        "directory",
        "-c",
        "base",
        "--addresses",
        list.join(","),
        "--pay",
        "--daily-cap",
        "0.005",
        "--json",
      ],
      config,
      { env: withKey },
    );
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain("over the daily cap 0.005 (--daily-cap)");
    expect(paidRequests(server)).toBe(1);
    const lines = readFileSync(ledger, "utf8").trimEnd().split("\n");
    for (const line of lines) expect(line.length).toBeLessThan(4096);
    const [signed] = signedLines(ledger);
    expect(signed!.command).toMatch(/… \(\d{4} characters, sha256 [0-9a-f]{16}\)$/);
    expect((signed!.command as string).length).toBe(1024);
    // `payments` shows the payment the cap counted, and agrees with it.
    const { records } = await shownPayments(config);
    expect(records.map((p) => p.atomic)).toEqual(["5000"]);
  });

  it("a long line an older tokenintel wrote, and damaged signed lines, count against the cap", async () => {
    const server = await paidStub();
    const { config, ledger } = home();
    // As tokenintel 0.1 wrote it: the whole command line, 5,000 characters.
    writeLedger(
      ledger,
      `${JSON.stringify(signedLine(Date.now() - 60_000, { command: `tokenintel ${"x".repeat(5000)}` }))}\n`,
    );
    const r = await payOnce(server.url, config, "0.005");
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain("over the daily cap 0.005 (--daily-cap) by 0.005 USDC");
    expect(paidRequests(server)).toBe(0);
    const { records } = await shownPayments(config);
    expect(records).toHaveLength(1);
    expect(records[0]!.command).toMatch(/^tokenintel x+… \(5011 characters, sha256 [0-9a-f]{16}\)$/);

    // A signed line damaged past reading (a field of the wrong type), its amount still legible: counted.
    const other = home();
    writeLedger(other.ledger, `${JSON.stringify(signedLine(Date.now() - 60_000, { x402Version: "1" }))}\n`);
    const damaged = await payOnce(server.url, other.config, "0.009");
    expect(damaged.code, damaged.stderr).toBe(5);
    expect(damaged.stderr).toContain("over the daily cap 0.009 (--daily-cap) by 0.001 USDC");
    // A signed line torn before its amount: no payment under a cap until it is mended.
    const torn = home();
    writeLedger(
      torn.ledger,
      `{"v":1,"kind":"signed","at":"${new Date(Date.now() - 60_000).toISOString()}","comm\n`,
    );
    const stopped = await payOnce(server.url, torn.config, "1");
    expect(stopped.code, stopped.stderr).toBe(5);
    expect(stopped.stderr).toBe(
      `tokenintel: refusing to pay under the daily cap: the payment ledger ${torn.ledger} holds 1 signed line of the last 24 hours whose amount cannot be read, so the daily cap cannot count it (mend or remove that line; \`tokenintel payments\` counts them)\n`,
    );
    expect(paidRequests(server)).toBe(0);
    const shown = await shownPayments(torn.config);
    expect(shown.records).toEqual([]);
    expect(shown.stderr).toContain("1 line of the payment ledger");
    expect(shown.stderr).toContain("(1 of them signed payments:");
  });

  it("a run made while the clock was two days behind does not hide the payments before it", async () => {
    const server = await paidStub();
    const { config, ledger } = home();
    const preload = new URL("./clock-shift.mjs", import.meta.url).href;
    const behind = { NODE_OPTIONS: `--import=${preload}`, CLOCK_SHIFT_MS: String(-2 * 86_400_000) };
    for (const env of [{}, {}, behind]) {
      // Each its own process: the clock is shifted in the process the preload starts.
      const r = await payOnce(server.url, config, "0.015", env, runBinary);
      expect(r.code, r.stderr).toBe(0);
    }
    const lines = signedLines(ledger);
    expect(Date.parse(lines[2]!.at)).toBeLessThan(Date.now() - 47 * 3_600_000); // dated two days back, last
    // The clock is right again: three payments of the last day are counted, the fourth refused.
    const next = await payOnce(server.url, config, "0.015");
    expect(next.code, next.stderr).toBe(5);
    expect(next.stderr).toContain("over the daily cap 0.015 (--daily-cap) by 0.005 USDC");
    expect(paidRequests(server)).toBe(3);
    const dry = await run(
      ["--base-url", server.url, "directory", "-c", "base", "--dry-run", "--daily-cap", "0.02"],
      config,
      {
        env: withKey,
      },
    );
    expect(dry.stderr).toContain(
      "0.015 USDC signed in the last 24 h (payment ledger), 0.005 USDC left, room for 1 more payment",
    );
    const { records } = await shownPayments(config);
    expect(sumSigned(records as unknown as Line[])).toBe(15_000n);
  }, 30_000);

  it("a lock held by a suspended run (SIGSTOP, 40 s old) is not broken: the next run waits, then pays nothing", async () => {
    const server = await paidStub();
    const { config, ledger } = home();
    writeLedger(ledger, "");
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      holder.kill("SIGSTOP");
      const lock = join(config, "data", "payments.cap.lock");
      const { hostname } = await import("node:os");
      writeFileSync(lock, `${holder.pid}\n${hostname()}\nsuspended\n`, { mode: 0o600 });
      const old = new Date(Date.now() - 40_000);
      utimesSync(lock, old, old);
      const r = await payOnce(server.url, config, "0.01");
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`is locked by another tokenintel (pid ${holder.pid}) for more than 10 s`);
      expect(paidRequests(server)).toBe(0);
      expect(readFileSync(lock, "utf8")).toContain("suspended");
    } finally {
      holder.kill("SIGKILL");
    }
  }, 30_000);

  it("a newline-free tail of 32 MiB is read in linear time, and the payments before it still count", async () => {
    const server = await paidStub();
    const { config, ledger } = home();
    writeLedger(
      ledger,
      `${JSON.stringify(signedLine(Date.now() - 60_000))}\n${"x".repeat(32 * 1024 * 1024)}`,
    );
    const started = Date.now();
    const r = await payOnce(server.url, config, "0.01");
    const ms = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    expect(ms).toBeLessThan(8_000);
    const refused = await payOnce(server.url, config, "0.01");
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain("over the daily cap 0.01 (--daily-cap) by 0.005 USDC");
    expect(paidRequests(server)).toBe(1);
    const shown = await shownPayments(config);
    expect(shown.records.map((p) => p.atomic)).toEqual(["5000", "5000"]);
    expect(shown.stderr).toContain("1 line of the payment ledger");
  }, 30_000);
});
