import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `tokenintel payments` in-process through run(): which ledger it reads, where the payments went
// when it has none, and its per-day table.

const WALLET = generatePrivateKey();
const servers = useServers();
const sandbox = useSandbox();
neverShown(WALLET.slice(2));

const env = { TOKENINTEL_WALLET_KEY: WALLET, NO_COLOR: "1" };
/** Two pages of market paid for with --pay: through --sandbox, or against a sandbox at a base URL (the real ledger). */
const pay = async (dir: string, sandboxFlag: boolean) => {
  const where = sandboxFlag ? ["--sandbox"] : ["--base-url", sandbox.url];
  const r = await run([...where, "market", "-c", "base", "--limit", "60", "--pay", "--json"], dir, { env });
  expect(r.code, r.stderr).toBe(0);
};

describe("payments", () => {
  it("empty: names the ledger it read and where the --sandbox payments are, and how to list them", async () => {
    const dir = servers.folder();
    await pay(dir, true);
    const real = join(dir, "data", "payments.jsonl");
    const apart = join(dir, "data", "payments-sandbox.jsonl");
    const r = await run(["payments", "--json"], dir, { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toContain(`no payments recorded (ledger: ${real})`);
    expect(r.stderr).toContain(
      `2 payments made with --sandbox are recorded apart, in ${apart}: 'tokenintel payments --sandbox' lists them`,
    );
    const listed = await run(["--sandbox", "payments", "--json"], dir, { env });
    expect(JSON.parse(listed.stdout)).toHaveLength(2);
    // --since counts the other ledger's payments since then too: none since 2030.
    const since = await run(["payments", "--since", "2030-01-01", "--json"], dir, { env });
    expect(since.stderr).not.toContain("--sandbox");
  });

  it("the sandbox's empty ledger names the real one's payments", async () => {
    const dir = servers.folder();
    await pay(dir, false);
    const r = await run(["--sandbox", "payments", "-o", "table"], dir, { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `2 payments made without --sandbox are recorded apart, in ${join(dir, "data", "payments.jsonl")}: 'tokenintel payments' (without --sandbox) lists them`,
    );
  });

  it("with payments, says the ledger they were read from", async () => {
    const dir = servers.folder();
    await pay(dir, false);
    const r = await run(["payments", "--json"], dir, { env });
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(r.stderr).toContain(`payments from the ledger ${join(dir, "data", "payments.jsonl")}`);
    expect(r.stderr).not.toContain("--sandbox");
  });

  it("--by-day right-aligns its counts and amounts under their headers", async () => {
    const dir = servers.folder();
    await pay(dir, false);
    const r = await run(["payments", "--by-day", "-o", "table"], dir, { env });
    expect(r.code, r.stderr).toBe(0);
    const [header, row] = r.stdout.trimEnd().split("\n");
    for (const [name, value] of [
      ["payments", "2"],
      ["signed", "0.010000"],
      ["settled", "0.010000"],
    ] as const) {
      const end = header!.indexOf(name) + name.length;
      expect(row!.slice(end - value.length, end), `${name} in\n${header}\n${row}`).toBe(value);
    }
  });
});
