import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { SandboxServer } from "../../../src/sandbox/server.js";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// Paying per request with x402: the program (run in-process through run()) signs with the reference client
// packages, the sandbox verifies with the reference facilitator's verifier over a simulated chain.

const WALLET = generatePrivateKey();
const PAYER = privateKeyToAccount(WALLET).address;
const servers = useServers();
const dir = { path: servers.folder() };
neverShown(WALLET.slice(2));
const sandbox = servers.sandbox;

const directory = (
  s: SandboxServer,
  args: string[],
  env: Record<string, string> = { TOKENINTEL_WALLET_KEY: WALLET },
) => run(["--base-url", s.url, "directory", "-c", "base", ...args], dir.path, { env });

const short = `${PAYER.slice(0, 6)}…${PAYER.slice(-4)}`;

describe("without a key and without --pay", () => {
  it("a 402 is exit 5 naming the price, the requests needed and the ways out", async () => {
    const s = await sandbox();
    const r = await directory(s, ["--limit", "250"], {});
    expect(r.code).toBe(5);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      "tokenintel: payment required (HTTP 402: 0.005 USDC on Base per request; this command needs at least 3 requests); use an API key ('tokenintel auth login') or pay per request with --pay",
    );
  });
});

describe("--pay", () => {
  for (const version of [1, 2] as const) {
    it(`x402 v${version}: every page paid once, verified, and summed up on stderr`, async () => {
      const s = await sandbox({ x402Version: version });
      const r = await directory(s, ["--limit", "250", "--pay", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const records = JSON.parse(r.stdout) as Array<{ id: string }>;
      expect(records.map((x) => x.id)).toEqual(
        s.data
          .list("base", undefined)
          .slice(0, 250)
          .map((t) => t.id),
      );
      expect(s.stats.payments).toEqual({ accepted: 3, refused: 0 });
      expect(r.stderr.trim()).toMatch(
        new RegExp(
          `^tokenintel: paid 3 requests, 0\\.015 USDC on Base, from ${short}; settlement 0x[0-9a-f]{64} \\(\\+2 more\\)$`,
        ),
      );
    });
  }

  it("reads the wallet key from --wallet-key-file, and pays on Base Sepolia", async () => {
    const s = await sandbox({ x402Version: 2, x402Network: "base-sepolia" });
    const file = join(dir.path, "wallet.key");
    writeFileSync(file, `${WALLET}\n`, { mode: 0o600 });
    const r = await directory(s, ["--page", "2", "--pay", "--wallet-key-file", file, "--json"], {});
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(100);
    expect(r.stderr).toMatch(/paid 1 request, 0\.005 USDC on Base Sepolia/);
    expect(s.stats.payments.accepted).toBe(1);
  });

  it("--verbose names the payee and the asset, never the key", async () => {
    const s = await sandbox();
    const r = await run(
      ["--verbose", "--base-url", s.url, "directory", "-c", "base", "--page", "1", "--pay"],
      dir.path,
      {
        env: { TOKENINTEL_WALLET_KEY: WALLET },
      },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /paying 0\.005 USDC on Base to 0x5a1db0{31}beef \(asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913, x402 v1\) for page 1/,
    );
  });

  it("pays only for pages it needs: no pages are requested ahead when each one costs money", async () => {
    const s = await sandbox();
    const r = await directory(s, ["--pay", "--max-spend", "1", "--ndjson"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1000);
    // 10 full pages and the empty one that ends the list; with a key, up to 3 more go ahead.
    expect(s.stats.payments).toEqual({ accepted: 11, refused: 0 });
    expect(s.stats.byPath["/v1/crypto-metainfo"]).toBe(22); // each paid page: a 402, then the paid request
  });

  it("a retried request after a payment was accepted does not pay twice", async () => {
    // 502s from a gateway in front: the paid request is sent again with the same payment.
    const s = await sandbox({ failRate: 0.4, seed: 3 });
    const r = await directory(s, ["--limit", "500", "--pay", "--ndjson", "--retries", "8", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(500);
    expect(s.stats.byStatus[502]).toBeGreaterThan(0);
    expect(s.stats.payments).toEqual({ accepted: 5, refused: 0 });
    // Exactly 5 signed: a payment sent again with its retry is not signed anew.
    expect(r.stderr.trim()).toMatch(
      new RegExp(
        `^tokenintel: paid 5 requests, 0\\.025 USDC on Base, from ${short}; settlement 0x[0-9a-f]{64} \\(\\+4 more\\)$`,
      ),
    );
  });
});

describe("caps that cannot be talked past", () => {
  it("a price over --max-payment is refused before signing, saying by how much", async () => {
    const s = await sandbox({ priceAtomic: "50000" });
    const r = await directory(s, ["--pay", "--json"]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      "tokenintel: refusing to pay: 0.05 USDC per request is over --max-payment 0.01 by 0.04 USDC",
    );
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
    const raised = await directory(s, ["--pay", "--max-payment", "0.05", "--page", "1", "--json"]);
    expect(raised.code).toBe(0);
  });

  it("--dry-run counts what the response cache holds: no payment for a page it would not request", async () => {
    const s = await sandbox();
    const env = { TOKENINTEL_WALLET_KEY: WALLET, TOKENINTEL_CACHE_DIR: join(dir.path, "dry-run-cache") };
    const paid = await directory(s, ["--limit", "250", "--pay", "--cache", "5m", "--json"], env);
    expect(paid.code, paid.stderr).toBe(0);
    expect(s.stats.payments.accepted).toBe(3);
    const again = await directory(s, ["--limit", "250", "--dry-run", "--cache", "5m"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /^tokenintel: dry run: pages 1–3 answered from the response cache \(\d+ s old\), nothing paid for them; for the pages after them: would pay 0\.005 USDC on Base per request to 0x\w+; none needed unless the server repeats records/,
    );
    const one = await directory(s, ["--page", "2", "--dry-run", "--cache", "5m"], env);
    expect(one.stderr).toMatch(
      /dry run: page 2 answered from the response cache \(\d+ s old\), nothing paid for it; nothing would be paid\n$/,
    );
    // Without --cache, the cache is not read: the plan is the price of every request.
    const uncached = await directory(s, ["--page", "2", "--dry-run"], env);
    expect(uncached.stderr).toContain("dry run: would pay 0.005 USDC on Base per request");
    expect(s.stats.payments.accepted).toBe(3);
  });

  it("--max-spend stops the command before the payment that would pass it", async () => {
    const s = await sandbox();
    const r = await directory(s, ["--pay", "--max-spend", "0.02", "--ndjson"]);
    expect(r.code).toBe(5);
    expect(r.stdout.trim().split("\n")).toHaveLength(400);
    expect(r.stderr).toContain(
      "tokenintel: refusing to pay: payment 5 would bring the total to 0.025 USDC, over --max-spend 0.02 by 0.005 USDC",
    );
    expect(r.stderr).toMatch(/paid 4 requests, 0\.02 USDC on Base/);
    expect(s.stats.payments.accepted).toBe(4);
    // The 4 pages paid for are printed as one valid document, not thrown away.
    const json = await directory(s, ["--pay", "--max-spend", "0.02", "--json"]);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toHaveLength(400);
    expect(json.stderr).toMatch(/records from page 5 on are missing/);
  });

  it("a command whose requests are known from its list is refused whole, before any payment is signed", async () => {
    const s = await sandbox();
    // 31 tickers: two requests of 30 and 1, known before the first; 0.01 USDC over --max-spend 0.005.
    const tickers = s.data
      .list("base", undefined)
      .slice(0, 31)
      .map((t) => t.symbol.replace(/,/g, "\\,"));
    const r = await run(
      ["--base-url", s.url, "smart-money", "--tickers", tickers.join(","), "--pay", "--max-spend", "0.005"],
      dir.path,
      { env: { TOKENINTEL_WALLET_KEY: WALLET } },
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      "tokenintel: refusing to pay: this command needs 2 paid requests of 0.005 USDC: 0.01 USDC, over --max-spend 0.005; nothing was paid",
    );
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
  });

  it("a requirement naming the wrong EIP-712 domain is refused", async () => {
    const s = await sandbox({ x402DomainName: "USD Coin (totally real)" });
    const r = await directory(s, ["--pay", "--page", "1"]);
    expect(r.code).toBe(5);
    expect(r.stderr.trim()).toBe(
      "tokenintel: refusing to pay: the requirement names the EIP-712 domain 'USD Coin (totally real)' version '2' for USDC on Base; expected 'USD Coin' version '2'",
    );
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
  });
});

describe("--dry-run and flag checks", () => {
  it("--dry-run shows the price and the total without paying", async () => {
    const s = await sandbox();
    const r = await directory(s, ["--limit", "250", "--dry-run", "--json"], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      "tokenintel: dry run: would pay 0.005 USDC on Base per request to 0x5a1db0000000000000000000000000000000beef; at least 3 requests, at least 0.015 USDC in total; caps: --max-payment 0.01, --max-spend 0.10",
    );
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
  });

  it("usage errors: no wallet key, a bad key, a bad amount", async () => {
    const s = await sandbox();
    const before = s.stats.requests;
    const noKey = await directory(s, ["--pay"], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/--pay needs a wallet key/);
    const badKey = await directory(s, ["--pay"], { TOKENINTEL_WALLET_KEY: "0x1234" });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/TOKENINTEL_WALLET_KEY does not hold a 32-byte hex private key/);
    const badAmount = await directory(s, ["--pay", "--max-spend", "ten"]);
    expect(badAmount.code).toBe(2);
    expect(badAmount.stderr).toMatch(/--max-spend: expected an amount/);
    expect(s.stats.requests).toBe(before);
  });

  it("tokenintel api pays the same way", async () => {
    const s = await sandbox({ x402Version: 2 });
    const r = await run(
      ["--base-url", s.url, "api", "/v1/crypto-metainfo", "-f", "chain=solana", "--pay"],
      dir.path,
      {
        env: { TOKENINTEL_WALLET_KEY: WALLET },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { data: unknown[] }).data).toHaveLength(100);
    expect(r.stderr).toMatch(/paid 1 request, 0\.005 USDC on Base/);
  });
});
