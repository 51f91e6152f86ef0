import { beforeAll, describe, expect, it } from "vitest";
import { escapeForTerminal } from "../../src/terminal/sanitize.js";
import { run } from "../commands/harness.js";
import { useServers } from "./fixtures.js";
import { type HostileServer, sendJson } from "./hostile-server.js";
import { inTerminal } from "./terminal-session.js";

// JSON on a terminal is indented and coloured like jq's; piped, it is exactly
// what it was (made for jq), uncoloured. The server here names its token with escape sequences and
// sends numbers no double can hold.

const servers = useServers();
const dir = { path: servers.folder() };

const EVIL = "Evil\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b31mred\u202egnp.exe";
const TINY = "0.000000000000000000123456789";
const HUGE = "123456789012345678901234567890";
const RECORD = `{"id":"t1","token_info":{"id":"t1","symbol":"EXACT","name":${JSON.stringify(EVIL)},"chain":"base","ecosystem":"virtuals"},"token_metrics":{"usd_price":${TINY},"mcap":${HUGE},"verified":true,"fdv":null}}`;
const PAGE = `{"success":true,"data":[${RECORD}],"meta":{"pagination":{"page":1,"pageSize":30,"pageCount":1,"total":1}}}`;

/** What `market --json` printed piped before this change: the records, two-space indented, digits as sent. */
const PIPED_JSON = `[
  {
    "id": "t1",
    "token_info": {
      "id": "t1",
      "symbol": "EXACT",
      "name": ${JSON.stringify(EVIL)},
      "chain": "base",
      "ecosystem": "virtuals"
    },
    "token_metrics": {
      "usd_price": ${TINY},
      "mcap": ${HUGE},
      "verified": true,
      "fdv": null
    }
  }
]
`;

let server: HostileServer;
beforeAll(async () => {
  server = await servers.stub((_req, res) => sendJson(res, PAGE));
});
const against = () => ["--base-url", server.url, "--api-key", "key-for-pretty-json"];

const KEY = (name: string) => `\x1b[1;34m"${name}"\x1b[0m: `;
const OUR_COLOURS = /\x1b\[(?:0|1;34|32|33|36|90)m/g;

async function screenOf(args: string[], env: Record<string, string> = {}): Promise<string> {
  const session = inTerminal([...against(), ...args], dir.path, env);
  expect(await session.exited).toBe(0);
  return session.screen().replace(/\r\n/g, "\n");
}

/** Nothing that acts on a terminal but the colours added for JSON. */
function expectOnlyOurEscapes(screen: string): void {
  expect(screen.replace(OUR_COLOURS, "")).not.toMatch(
    /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/,
  );
}

describe("JSON on a terminal is indented and coloured", () => {
  it("--json: keys blue, strings green, numbers and literals coloured, two-space indented", async () => {
    const screen = await screenOf(["market", "-c", "base", "--json"]);
    expect(screen).toContain(`\n    ${KEY("id")}\x1b[32m"t1"\x1b[0m,\n`);
    expect(screen).toContain(`\n      ${KEY("symbol")}\x1b[32m"EXACT"\x1b[0m,\n`);
    expect(screen).toContain(`${KEY("usd_price")}\x1b[36m${TINY}\x1b[0m,\n`);
    expect(screen).toContain(`${KEY("mcap")}\x1b[36m${HUGE}\x1b[0m,\n`);
    expect(screen).toContain(`${KEY("verified")}\x1b[33mtrue\x1b[0m,\n`);
    expect(screen).toContain(`${KEY("fdv")}\x1b[90mnull\x1b[0m\n`);
    // The colours taken away, it is the same JSON, every digit kept.
    expect(screen.replace(OUR_COLOURS, "")).toBe(escapeForTerminal(PIPED_JSON));
  });

  it("a server string with ESC, U+009B and a bidi override shows escaped, inside its colour", async () => {
    for (const args of [
      ["market", "-c", "base", "--json"],
      ["market", "-c", "base", "-o", "ndjson"],
      ["api", "/v1/crypto-market/", "-f", "chain=base"],
    ]) {
      const screen = await screenOf(args);
      expect(screen).toContain(
        `${KEY("name")}\x1b[32m"Evil\\u001b]52;c;cHduZWQ=\\u0007\\u001b[2J\\u009b31mred\\u202egnp.exe"\x1b[0m`.replace(
          ": ",
          args.includes("ndjson") ? ":" : ": ",
        ),
      );
      expectOnlyOurEscapes(screen);
    }
  });

  it("api: the server's compact body is laid out and coloured, its numbers digit for digit", async () => {
    const screen = await screenOf(["api", "/v1/crypto-market/", "-f", "chain=base"]);
    expect(screen).toMatch(
      /^\{\n {2}\x1b\[1;34m"success"\x1b\[0m: \x1b\[33mtrue\x1b\[0m,\n {2}\x1b\[1;34m"data"/,
    );
    expect(screen).toContain(`\n        ${KEY("usd_price")}\x1b[36m${TINY}\x1b[0m,\n`);
    expect(screen).toContain(`${KEY("mcap")}\x1b[36m${HUGE}\x1b[0m`);
    expect(JSON.parse(screen.replace(OUR_COLOURS, ""))).toEqual(JSON.parse(PAGE));
  });

  it("colour off (--color never, NO_COLOR): still indented, no escape at all", async () => {
    for (const [args, env] of [
      [["--color", "never"], {}],
      [[], { NO_COLOR: "1" }],
    ] as Array<[string[], Record<string, string>]>) {
      const screen = await screenOf([...args, "api", "/v1/crypto-market/", "-f", "chain=base"], env);
      expect(screen).not.toContain("\x1b");
      expect(screen).toContain(`\n        "usd_price": ${TINY},\n`);
    }
  });

  it("ndjson stays one record a line", async () => {
    const screen = await screenOf(["market", "-c", "base", "--ndjson"]);
    const lines = screen.split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`\x1b[1;34m"mcap"\x1b[0m:\x1b[36m${HUGE}\x1b[0m`);
  });
});

describe("piped JSON is unchanged", () => {
  it("--json, -o ndjson and api write the same bytes as before, with no colour", async () => {
    const json = await run([...against(), "market", "-c", "base", "--json"], dir.path);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(PIPED_JSON);
    const ndjson = await run([...against(), "market", "-c", "base", "-o", "ndjson"], dir.path);
    expect(ndjson.stdout).toBe(`${RECORD}\n`);
    const api = await run([...against(), "api", "/v1/crypto-market/", "-f", "chain=base"], dir.path);
    expect(api.stdout).toBe(`${PAGE}\n`);
  });

  it("FORCE_COLOR colours no piped JSON; --color always does, keeping the layout, strings made inert", async () => {
    const forced = await run([...against(), "market", "-c", "base", "--json"], dir.path, {
      env: { FORCE_COLOR: "1" },
    });
    expect(forced.stdout).toBe(PIPED_JSON);
    const always = await run([...against(), "--color", "always", "market", "-c", "base", "--json"], dir.path);
    expect(always.stdout).toContain(`${KEY("mcap")}\x1b[36m${HUGE}\x1b[0m`);
    expect(always.stdout.replace(OUR_COLOURS, "")).toBe(escapeForTerminal(PIPED_JSON));
    const api = await run([...against(), "--color", "always", "api", "/v1/crypto-market/"], dir.path);
    expect(api.stdout.replace(OUR_COLOURS, "")).toBe(escapeForTerminal(`${PAGE}\n`));
    expect(api.stdout).toContain(`\x1b[1;34m"mcap"\x1b[0m:\x1b[36m${HUGE}\x1b[0m`);
  });
});
