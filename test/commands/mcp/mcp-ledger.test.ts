import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { useMcp } from "../mcp-client.js";

// tokenintel mcp --pay keeps one payment session for its life (--max-spend holds across calls);
// the ledger names, for each payment, the tool call that made it.

const WALLET = generatePrivateKey();
const servers = useServers();
const sandbox = useSandbox();
const connect = useMcp(() => [WALLET.slice(2)]);

describe("tokenintel mcp --pay: the ledger", () => {
  it("names the tool of each paid call, not the first call's for every payment", async () => {
    const folder = servers.folder();
    const { client } = await connect(
      folder,
      ["--base-url", sandbox.url, "mcp", "--pay", "--max-spend", "0.05", "--daily-cap", "1"],
      { TOKENINTEL_API_KEY: "", TOKENINTEL_WALLET_KEY: WALLET },
    );
    const calls = [
      { name: "directory", arguments: { chain: "base", limit: 1 } },
      { name: "history", arguments: { chain: "base", tickers: ["AIXBT"] } },
      { name: "directory", arguments: { chain: "base", limit: 1 } },
    ];
    for (const call of calls) {
      const answer = await client.callTool(call);
      expect(answer.isError, JSON.stringify(answer).slice(0, 500)).toBeFalsy();
    }
    const signed = readFileSync(join(folder, "data", "payments.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((l) => l.kind === "signed");
    const commands = [...new Set(signed.map((l) => l.command))];
    expect(commands).toEqual(["tokenintel mcp directory", "tokenintel mcp history"]);
    expect(signed.map((l) => l.command)).toEqual(
      signed.map((l) =>
        l.label.startsWith("AIXBT") ? "tokenintel mcp history" : "tokenintel mcp directory",
      ),
    );
  });
});
