import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Transport } from "../../src/api/transport.js";

// issue 14: the slot of a request is freed once its body is in, before the body is parsed, so the
// next request goes out first; the body is still decoded and checked as before.

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(req.url === "/bad" ? '{"data":[1,' : '{"data":[1.10,2]}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("Transport: received", () => {
  it("is told once the body is in, before it is decoded (even when decoding fails)", async () => {
    const transport = new Transport({ origin: base, concurrency: 1, timeoutMs: 5000 });
    try {
      const events: string[] = [];
      const ok = await transport.send({
        method: "GET",
        url: new URL(`${base}/ok`),
        payload: undefined,
        headers: undefined,
        raw: false,
        received: () => events.push("received"),
      });
      events.push("decoded");
      expect(events).toEqual(["received", "decoded"]);
      expect(ok.text).toBe('{"data":[1.10,2]}');
      expect(JSON.stringify((ok.body as { data: unknown[] }).data.map(String))).toBe('["1.10","2"]');

      let told = 0;
      const bad = transport.send({
        method: "GET",
        url: new URL(`${base}/bad`),
        payload: undefined,
        headers: undefined,
        raw: false,
        received: () => told++,
      });
      await expect(bad).rejects.toThrow(/invalid JSON/);
      expect(told).toBe(1);
    } finally {
      await transport.close();
    }
  });
});

describe("Transport: one origin", () => {
  it("refuses a URL of another origin before anything is sent", async () => {
    let seen = 0;
    const other = createServer((_req, res) => {
      seen++;
      res.end("{}");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const transport = new Transport({ origin: base, concurrency: 1, timeoutMs: 5000 });
    try {
      await expect(
        transport.send({
          method: "GET",
          url: new URL(`${otherBase}/v1/x?api_key=k`),
          payload: undefined,
          headers: undefined,
          raw: false,
        }),
      ).rejects.toThrow(`refusing to send a request to ${otherBase}: not the API's origin (${base})`);
      expect(seen).toBe(0);
    } finally {
      await transport.close();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
