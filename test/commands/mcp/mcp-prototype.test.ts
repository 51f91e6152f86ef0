import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { useMcp } from "../mcp-client.js";

// The server picks a record's keys and a prompt-injected agent the paths: a record carrying
// __proto__ and constructor keys, and a call naming a path through them, neither pollutes
// Object.prototype nor stops the server answering the next call.

const KEY = `sk_proto_${Math.random().toString(36).slice(2)}_key`;
const servers = useServers();
const connect = useMcp(() => [KEY]);

/** A market page whose record carries the keys, as a server writes it (JSON text, not a literal). */
const PAGE =
  '{"success":true,"data":[{"id":"a","token_info":{"symbol":"AAA","name":"Aaa"},"token_metrics":{"usd_price":"1.5"},"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}],"meta":{"pagination":{"page":1,"pageSize":30,"pageCount":1,"total":1}}}';

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
/** Each call's own deadline: a server that stopped answering fails the test, not the file's timeout. */
const deadline = { timeout: 10_000 };

afterEach(() => {
  // A failing run must not leave the worker's other files a polluted prototype.
  delete (Object.prototype as Record<string, unknown>).polluted;
});

describe("tokenintel mcp: paths through __proto__, constructor or prototype", () => {
  it("fields, where and sort naming one are refused with the path; the next call is answered", async () => {
    const server = await servers.stub((_req, res) => sendJson(res, PAGE));
    const { client } = await connect(servers.folder(), ["--base-url", server.url, "mcp"], {
      TOKENINTEL_API_KEY: KEY,
    });
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ fields: ["__proto__.polluted"] }, 'fields: "__proto__.polluted": "__proto__" is no field name'],
      [
        { fields: ["id", "constructor.prototype.polluted"] },
        '"constructor.prototype.polluted": "constructor"',
      ],
      [{ where: ["__proto__.polluted=yes"] }, 'where: "__proto__.polluted": "__proto__"'],
      [{ sort: "constructor:desc" }, 'sort: "constructor": "constructor"'],
    ];
    for (const [args, said] of refused) {
      const r = (await client.callTool(
        { name: "market", arguments: { chain: "base", ...args } },
        undefined,
        deadline,
      )) as CallToolResult;
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(text(r)).toContain(said);
      expect(text(r)).not.toContain("\n");
      expect(({} as Record<string, unknown>).polluted, "Object.prototype was written").toBeUndefined();
    }
    // Refused before any request; the server goes on answering.
    expect(server.requests).toHaveLength(0);
    const next = (await client.callTool(
      { name: "market", arguments: { chain: "base", fields: ["id", "token_info.symbol"] } },
      undefined,
      deadline,
    )) as CallToolResult;
    expect(next.isError, text(next)).toBeFalsy();
    expect(next.structuredContent?.records).toEqual([{ id: "a", token_info: { symbol: "AAA" } }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
