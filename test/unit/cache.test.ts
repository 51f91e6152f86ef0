import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entryName, keyScope, ResponseCache } from "../../src/cache/responses.js";
import { ttlSchema } from "../../src/flags/values.js";
import { tempDir } from "../e2e/helpers.js";

const dirs: Array<ReturnType<typeof tempDir>> = [];
afterAll(() => {
  for (const d of dirs) d.remove();
});

function cache(options: { ttlMs?: number; maxBodyBytes?: number; now?: () => number; uid?: number } = {}) {
  const d = tempDir("tokenintel-cache-unit-");
  dirs.push(d);
  return new ResponseCache({
    dir: join(d.path, "responses"),
    ttlMs: options.ttlMs ?? 60_000,
    maxBodyBytes: options.maxBodyBytes ?? 1024,
    now: options.now,
    ...("uid" in options ? { uid: options.uid } : {}),
  });
}

const REQ = { origin: "https://api.example", method: "GET", target: "/v1/x?chain=base", apiKey: "k1" };
const OK = {
  status: 200,
  headers: { "content-type": "application/json", "x-payment-response": "secret" },
  text: '{"a":1}',
};

describe("ResponseCache", () => {
  it("replays status, content type and body; nothing else of the headers", () => {
    const c = cache();
    c.put(REQ, OK);
    expect(c.get(REQ)).toMatchObject({
      status: 200,
      headers: { "content-type": "application/json" },
      text: '{"a":1}',
    });
    expect(c.get(REQ)?.headers).not.toHaveProperty("x-payment-response");
  });

  it("keeps entries apart per key, and never names a file after the key", () => {
    const c = cache();
    c.put(REQ, OK);
    expect(c.get({ ...REQ, apiKey: "k2" })).toBeUndefined();
    expect(c.get({ ...REQ, apiKey: undefined })).toBeUndefined();
    expect(entryName(REQ)).not.toBe(entryName({ ...REQ, apiKey: "k2" }));
    expect(keyScope(undefined)).toBe("");
    expect(keyScope("k1")).not.toContain("k1");
  });

  it("never writes a body larger than the cap, nor a non-2xx answer", () => {
    const c = cache({ maxBodyBytes: 8 });
    c.put(REQ, { ...OK, text: "123456789" });
    expect(c.get(REQ)).toBeUndefined();
    c.put(REQ, { ...OK, text: "12345678" });
    expect(c.get(REQ)?.text).toBe("12345678");
    const d = cache();
    d.put(REQ, { ...OK, status: 500 });
    expect(d.get(REQ)).toBeUndefined();
  });

  it("an entry at its TTL is past it: ignored and removed", () => {
    let now = 1_000_000;
    const c = cache({ ttlMs: 10_000, now: () => now });
    c.put(REQ, OK);
    now += 9_999;
    expect(c.get(REQ)?.ageMs).toBe(9_999);
    now += 1;
    expect(c.get(REQ)).toBeUndefined();
    expect(readdirSync(c.dir)).toEqual([]);
  });

  it("an entry someone else owns is never trusted", () => {
    const c = cache();
    c.put(REQ, OK);
    const stranger = new ResponseCache({ dir: c.dir, ttlMs: 60_000, maxBodyBytes: 1024, uid: 12345 });
    expect(stranger.get(REQ)).toBeUndefined();
  });

  it("files are 0600 in a 0700 folder; clear removes them; TTL 0 neither reads nor writes", () => {
    const c = cache();
    c.put(REQ, OK);
    expect(statSync(c.dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(c.dir)) expect(statSync(join(c.dir, name)).mode & 0o777).toBe(0o600);
    expect(c.clear()).toBe(1);
    const off = new ResponseCache({ dir: c.dir, ttlMs: 0, maxBodyBytes: 1024 });
    off.put(REQ, OK);
    expect(readdirSync(c.dir)).toEqual([]);
  });

  it("reads TTLs: units, 0 for off, at most a week", () => {
    expect(ttlSchema.parse("90")).toBe(90_000);
    expect(ttlSchema.parse("10m")).toBe(600_000);
    expect(ttlSchema.parse("2h")).toBe(7_200_000);
    expect(ttlSchema.parse("7d")).toBe(604_800_000);
    expect(ttlSchema.parse("0")).toBe(0);
    expect(ttlSchema.safeParse("8d").success).toBe(false);
    expect(ttlSchema.parse("1.5h")).toBe(5_400_000);
    expect(ttlSchema.parse("1w")).toBe(604_800_000);
    expect(ttlSchema.safeParse("2026-01-01").success).toBe(false);
    expect(ttlSchema.safeParse("-1s").success).toBe(false);
  });
});
