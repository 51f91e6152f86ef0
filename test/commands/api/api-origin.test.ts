import { generatePrivateKey } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { buildUrl } from "../../../src/api/urls.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import type { HostileServer } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// `tokenintel api <path>`: no path, however written, reaches another host with the key.
// A second server on loopback stands for the attacker's and must see no request at all.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_origin`;
const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox({ apiKey: KEY });
let evil: HostileServer;
beforeAll(async () => {
  evil = await servers.stub((_req, res) => {
    res.end('{"success":true,"data":[]}');
  });
});
neverShown(KEY);

const WALLET = generatePrivateKey();
const api = (args: string[]) =>
  run(["--base-url", sandbox.url, "api", ...args], dir.path, {
    env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_WALLET_KEY: WALLET },
  });

describe("api paths that would name another host", () => {
  const host = () => evil.url.replace("http://", "");
  const variants = () => [
    [`\\\\${host()}/v1/x`, "a backslash"],
    [`\\/${host()}/v1/x`, "a backslash"],
    [`/\\${host()}/v1/x`, "a backslash"],
    [`\t//${host()}/v1/x`, "a control character (U+0009)"],
    [`\n//${host()}/v1/x`, "a control character (U+000A)"],
    [`/\r/${host()}/v1/x`, "a control character (U+000D)"],
    [`\u0085//${host()}/v1/x`, "a control character (U+0085)"],
  ];

  for (const [how, extra] of [
    ["GET", []],
    ["POST", ["-X", "POST", "-f", "question=x"]],
    ["--pay", ["--pay"]],
  ] as const) {
    it(`are refused, exit 2, with nothing sent anywhere (${how})`, async () => {
      for (const [path, what] of variants()) {
        const before = sandbox.stats.requests;
        const r = await api([path!, ...extra]);
        expect(r.code, JSON.stringify([path, extra, r.stderr])).toBe(2);
        expect(r.stderr.trim()).toBe(
          `tokenintel: api: the path holds ${what}; write it with forward slashes and printable characters`,
        );
        expect(sandbox.stats.requests).toBe(before);
      }
      expect(evil.requests).toHaveLength(0);
    }, 90_000);
  }

  it("a path with a host in plain slashes stays a path under the base URL", async () => {
    const r = await api([`//${host()}/v1/trending`]);
    expect(evil.requests).toHaveLength(0);
    expect(r.code).toBe(1); // the sandbox answers 404 for /127.0.0.1:port/v1/trending
  });

  it("the URL builder refuses a path that the parser would take to another origin", () => {
    const base = new URL(sandbox.url);
    // The ones the URL parser itself would take elsewhere (the others only reach odd paths).
    for (const path of [`\\\\${host()}/x`, `\\/${host()}/x`, `\t//${host()}/x`, `\n//${host()}/x`])
      expect(() => buildUrl(base, path, [], KEY), JSON.stringify(path)).toThrow(/not the API's origin/);
    expect(buildUrl(base, "/v1/trending").origin).toBe(base.origin);
  });
});

describe("query parameters in the path (as gh api takes them)", () => {
  it("are sent with the -f fields; one given both ways is an error naming it", async () => {
    const r = await api(["/v1/trending?chain=solana&page=2"]);
    expect(r.code, r.stderr).toBe(0);
    const both = await api(["/v1/trending?chain=solana", "-f", "page=2"]);
    expect(both.stdout).toBe(r.stdout);
    const clash = await api(["/v1/trending?chain=solana", "-f", "chain=base"]);
    expect(clash.code).toBe(2);
    expect(clash.stderr.trim()).toBe(
      'tokenintel: api: "chain" is given both in the path and with -f/-F; give it once',
    );
  });

  it("--paginate starts at the page asked for, in the path or with -f", async () => {
    const from3 = await api(["/v1/trending?chain=base&page=3", "--paginate"]);
    expect(from3.code, from3.stderr).toBe(0);
    const all = JSON.parse(
      (await api(["/v1/trending", "-f", "chain=base", "--paginate"])).stdout,
    ) as unknown[];
    const rest = JSON.parse(from3.stdout) as unknown[];
    // 20 a page: pages 3 on are all but the first 40 records.
    expect(rest).toEqual(all.slice(40));
    const withField = await api(["/v1/trending", "-f", "chain=base", "-f", "page=3", "--paginate"]);
    expect(withField.stdout).toBe(from3.stdout);
    const bad = await api(["/v1/trending", "-f", "page=0", "--paginate"]);
    expect(bad.code).toBe(2);
  });
});
