import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// A paid walk stopped by --max-spend, in-process through run() against the sandbox: what was paid
// for is printed whole in every format, the rest named missing, exit 5; api --paginate the same.

const WALLET = generatePrivateKey();
const dir = { path: useServers().folder() };
neverShown(WALLET.slice(2));

describe("hitting --max-spend keeps what was paid for", () => {
  const paid = useSandbox();
  const directory = (args: string[]) =>
    run(
      ["--base-url", paid.url, "directory", "-c", "base", "--pay", "--max-spend", "0.02", ...args],
      dir.path,
      {
        env: { TOKENINTEL_WALLET_KEY: WALLET },
      },
    );
  const first400 = () =>
    paid.data
      .list("base", undefined)
      .slice(0, 400)
      .map((t) => t.id);

  it("json: one valid document of the 4 pages paid for, the rest named missing, exit 5", async () => {
    const r = await directory(["--json"]);
    expect(r.code).toBe(5);
    expect((JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id)).toEqual(first400());
    expect(r.stderr).toMatch(/refusing to pay: payment 5 would bring the total to 0\.025 USDC/);
    expect(r.stderr).toMatch(/records from page 5 on are missing/);
    expect(r.stderr).toMatch(/paid 4 requests, 0\.02 USDC on Base/);
  });

  it("ndjson, csv and table print the same records", async () => {
    const nd = await directory(["--ndjson"]);
    expect(nd.code).toBe(5);
    expect(nd.stdout.trim().split("\n")).toHaveLength(400);
    const csv = await directory(["-o", "csv", "--fields", "id"]);
    expect(csv.code).toBe(5);
    expect(csv.stdout).toBe(`id\n${first400().join("\n")}\n`);
    const table = await directory(["-o", "table"]);
    expect(table.code).toBe(5);
    expect(table.stdout.trim().split("\n")).toHaveLength(401);
  });

  it("api --paginate: the same", async () => {
    const r = await run(
      [
        "--base-url",
        paid.url,
        "api",
        "/v1/crypto-metainfo",
        "-f",
        "chain=base",
        "--paginate",
        "--pay",
        "--max-spend",
        "0.02",
      ],
      dir.path,
      { env: { TOKENINTEL_WALLET_KEY: WALLET } },
    );
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout)).toHaveLength(400);
  });
});
