import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";
import { useMcp } from "../mcp-client.js";

// A server that echoes the API key back in the forms it may take on its way: upper- and
// lower-cased, its bytes in hex (either case), or wrapped across lines as a server that wraps long
// lines writes it. None of them reaches stdout, stderr or an MCP answer.

const KEY = `ti_live_${Math.random().toString(36).slice(2, 10)}Q7x9fA2c`;
const hex = Buffer.from(KEY).toString("hex");
// Wrapped first: a table cuts the name short.
const FORMS = [
  `${KEY.slice(0, 10)}\n    ${KEY.slice(10)}`,
  `${KEY.slice(0, 5)}\r\n\t${KEY.slice(5, 14)}\n\t${KEY.slice(14)}`,
  KEY.toUpperCase(),
  KEY.toLowerCase(),
  hex,
  hex.toUpperCase(),
];
const ECHO = FORMS.join(" | ");
const MASKED = FORMS.map(() => "***").join(" | ");
/** What is left of any of the forms, unmasked: a piece of the key or of its hex, in either case. */
const leaked = (text: string) =>
  [KEY.slice(0, 10), KEY.slice(14), hex.slice(0, 16), hex.slice(-16)]
    .flatMap((piece) => [piece, piece.toUpperCase(), piece.toLowerCase()])
    .filter((piece) => text.includes(piece));

const servers = useServers();
const connect = useMcp(() => [KEY, ...FORMS]);

function record(name: string): Record<string, unknown> {
  const info = { id: "t1", symbol: "ECHO", name, chain: "base", ecosystem: "virtuals" };
  return { id: "t1", token_info: info, token_metrics: { usd_price: "1.25" } };
}

/** Answers records whose name echoes the key; with `failing`, an error that does. */
async function echoingServer(failing = false) {
  return servers.stub((req, res) => {
    const url = req.url ?? "";
    if (url.startsWith("/v1/crypto-market") && !failing) {
      const pagination = { page: 1, pageSize: 30, pageCount: 1, total: 1 };
      sendJson(res, { success: true, data: [record(`name ${ECHO}`)], meta: { pagination } });
    } else sendJson(res, { success: false, message: `bad key: ${ECHO}` }, 400);
  });
}

describe("the key echoed back upper-cased, in hex or wrapped across lines is masked", () => {
  it("in an error body, on stderr", async () => {
    const server = await echoingServer();
    const r = await run(["--base-url", server.url, "--retries", "0", "api", "/v1/error"], servers.folder(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`bad key: ${MASKED}`);
    expect(leaked(r.stderr)).toEqual([]);
    expect(leaked(r.stdout)).toEqual([]);
  });

  it.each(["ndjson", "json", "csv", "table"])("in a record's field, on stdout, as %s", async (format) => {
    const server = await echoingServer();
    const r = await run(["--base-url", server.url, "market", "-c", "base", "-o", format], servers.folder(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(format === "table" ? "name *** | *** | " : `name ${MASKED}`);
    expect(leaked(r.stdout)).toEqual([]);
    expect(leaked(r.stderr)).toEqual([]);
  });

  it.each([false, true])("in an MCP tool's answer (an error: %s)", async (failing) => {
    const server = await echoingServer(failing);
    const { client } = await connect(servers.folder(), ["--base-url", server.url, "--retries", "0", "mcp"], {
      TOKENINTEL_API_KEY: KEY,
    });
    const answer = await client.callTool({ name: "market", arguments: { chain: "base" } });
    expect(Boolean(answer.isError)).toBe(failing);
    const text = JSON.stringify(answer);
    expect(text).toContain(MASKED);
    expect(leaked(text)).toEqual([]);
  });
});
