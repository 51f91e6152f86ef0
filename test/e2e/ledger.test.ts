import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { type SandboxOptions, type SandboxServer, startSandbox } from "../../src/sandbox/server.js";
import { BIN, baseEnv, type RunResult, run, tempDir, transcript } from "./helpers.js";
import { type HostileServer, hostileServer, type SeenRequest, sendJson } from "./hostile-server.js";

// Issue 25 part 1: the payment ledger and the daily cap, through the built binary. Paid runs use a
// throwaway wallet against the sandbox (which verifies and settles on a simulated chain) or against
// hostile servers; each test has its own config folder, and so its own data folder and ledger.

const WALLET = generatePrivateKey();
const PAYER = privateKeyToAccount(WALLET).address;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = `0x${"ab".repeat(20)}`;
const withKey = { TOKENINTEL_WALLET_KEY: WALLET };
const folders: Array<{ remove: () => void }> = [];
const sandboxes: SandboxServer[] = [];
const servers: HostileServer[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  for (const s of servers) await s.close();
  for (const f of folders) f.remove();
  const all = transcript.join("\n");
  expect(all).not.toContain(WALLET.slice(2));
});

/** A config folder of its own; its ledger is data/payments.jsonl inside (helpers.ts: baseEnv). */
function home(): { config: string; ledger: string } {
  const dir = tempDir("tokenintel-ledger-");
  folders.push(dir);
  return { config: dir.path, ledger: join(dir.path, "data", "payments.jsonl") };
}

async function sandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const s = await startSandbox({ port: 0, ...options });
  sandboxes.push(s);
  return s;
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

const addresses = (n: number) =>
  Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);

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

    const table = await cli(["payments"]);
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
    for (const bad of ["yesterday", "24", "2026-02-30"]) {
      const r = await cli(["payments", "--since", bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `tokenintel: --since: expected a span such as 24h or 7d, or a date such as 2026-01-31, got "${bad}"\n`,
      );
    }
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
