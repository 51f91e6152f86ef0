import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `tokenintel api <path>`, in-process through run() against the sandbox: the body printed as the
// server sent it, fields as query parameters or a JSON body, --input and -F, --paginate as one
// document, --include, --silent and --verbose with the key masked, and its usage errors.

const KEY = `sk_api_${Math.random().toString(36).slice(2)}_hidden`;
const dir = { path: useServers().folder() };
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const api = (args: string[], input?: string) =>
  run(["--base-url", sandbox.url, "api", ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY }, input });

describe("tokenintel api", () => {
  it("GET with fields prints the body exactly as the server sent it", async () => {
    const r = await api(["/v1/trending", "-f", "chain=solana", "-f", "page=2"]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as {
      data: Array<{ rank: number; chain: string }>;
      meta: { pagination: { page: number } };
    };
    expect(body.meta.pagination.page).toBe(2);
    expect(body.data[0]!.rank).toBe(21);
    expect(body.data.every((d) => d.chain === "solana")).toBe(true);
    // Not re-serialized: the sandbox sends compact JSON, and so does the output.
    expect(r.stdout).toBe(`${JSON.stringify(body)}\n`);
  });

  it("a spec'd endpoint works the same way, without a leading slash too", async () => {
    const token = sandbox.data.list("base", undefined)[7]!;
    const r = await api(["v1/crypto-market/", "-f", "chain=base", "-f", `token_tickers=${token.symbol}`]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { data: Array<{ id: string }> }).data.map((d) => d.id)).toEqual([
      token.id,
    ]);
  });

  it("POST sends fields as a JSON body with the key added", async () => {
    const token = sandbox.data.list("base", undefined)[8]!;
    const r = await api([
      "-X",
      "POST",
      "/v1/ask-loky",
      "-f",
      `question=how is ${token.symbol}?`,
      "-f",
      "chain=base",
    ]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { data: { tokenDetails: Array<{ token_id: string }> } };
    expect(body.data.tokenDetails.map((d) => d.token_id)).toEqual([token.id]);
  });

  it("POST with --input - sends a raw JSON body; -F reads typed values and @files", async () => {
    const token = sandbox.data.list("solana", undefined)[3]!;
    const viaInput = await api(
      ["-X", "POST", "/v1/ask-loky", "--input", "-"],
      JSON.stringify({ question: `$${token.symbol}`, chain: "solana" }),
    );
    expect(viaInput.code).toBe(0);
    expect(
      (JSON.parse(viaInput.stdout) as { data: { tokenDetails: Array<{ token_id: string }> } }).data
        .tokenDetails[0]!.token_id,
    ).toBe(token.id);

    const file = join(dir.path, "question.txt");
    writeFileSync(file, `tell me about ${token.symbol}`);
    const viaFile = await api([
      "-X",
      "POST",
      "/v1/ask-loky",
      "-F",
      `question=@${file}`,
      "-F",
      "chain=solana",
    ]);
    expect(viaFile.code).toBe(0);
    expect(viaFile.stdout).toContain(token.id);

    // A typed value the endpoint rejects shows the server's message: chain must be a string.
    const typed = await api(["-X", "POST", "/v1/ask-loky", "-F", "question=hi", "-F", "chain=5"]);
    expect(typed.code).toBe(1);
    expect(typed.stderr.trim()).toBe("tokenintel: HTTP 400: unsupported chain (base or solana)");
  });

  it("--paginate walks the pages and prints ONE JSON document of all records", async () => {
    const before = sandbox.stats.byPath["/v1/trending"] ?? 0;
    const r = await api(["/v1/trending", "-f", "chain=base", "--paginate"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ rank: number }>;
    expect(records.map((x) => x.rank)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect((sandbox.stats.byPath["/v1/trending"] ?? 0) - before).toBe(10);
    const nd = await api(["/v1/trending", "-f", "chain=base", "--paginate", "--ndjson", "--limit", "25"]);
    expect(
      nd.stdout
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as { rank: number }).rank),
    ).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it("an unknown path: exit 1 with the server's message; --include shows status, headers and body on stderr", async () => {
    const r = await api(["/v1/does-not-exist"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe("tokenintel: HTTP 404: no such endpoint: /v1/does-not-exist");
    const inc = await api(["/v1/does-not-exist", "--include"]);
    expect(inc.stderr).toMatch(/^HTTP\/1\.1 404 Not Found\ncontent-type: application\/json/);
    expect(inc.stderr).toContain('{"success":false,"message":"no such endpoint: /v1/does-not-exist"}');
  });

  it("--include on success prints the head to stderr only; --silent prints nothing", async () => {
    const inc = await api(["/v1/trending", "-f", "chain=base", "-i"]);
    expect(inc.code).toBe(0);
    expect(inc.stderr).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(JSON.parse(inc.stdout)).toHaveProperty("data");
    const silent = await api(["/v1/trending", "-f", "chain=base", "--silent"]);
    expect(silent.code).toBe(0);
    expect(silent.stdout).toBe("");
  });

  it("--verbose shows the key as ***", async () => {
    const r = await run(["--base-url", sandbox.url, "--verbose", "api", "/v1/trending"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.stderr).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/v1\/trending\?api_key=\*\*\*/);
  });

  it("usage errors", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["https://evil.example/v1/x"], /not the API's origin/],
      [["/v1/x?api_key=k"], /never in the path/],
      [["/v1/x?chain=base", "-f", "chain=solana"], /"chain" is given both in the path and with -f/],
      [["/v1/x", "-f", "novalue"], /--field: expected key=value/],
      [["/v1/x", "-f", "api_key=x"], /the key is added for you/],
      [["/v1/x", "-X", "DELETE"], /--method: expected GET or POST/],
      [["/v1/x", "--input", "-"], /use it with -X POST/],
      [["/v1/x", "-X", "POST", "--paginate"], /--paginate walks the pages of a GET/],
      [["/v1/x", "--ndjson"], /--ndjson goes with --paginate/],
    ];
    for (const [args, message] of cases) {
      const r = await api(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const badJson = await api(["-X", "POST", "/v1/ask-loky", "--input", "-"], "{not json");
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/--input: not valid JSON/);
  });
});
