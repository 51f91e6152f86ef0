import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Transport } from "../../src/api/transport.js";

// The slot of a request is freed once its body is in, before the body is parsed, so the
// next request goes out first; the body is still decoded and checked as before.

let server: Server;
let base: string;
/** Settles when the server's answer to /endless ends (the client dropped the connection). */
let endlessClosed: Promise<void> | undefined;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/announced") {
      // Announces 50 MB and sends nothing more: the answer must be refused without waiting for it.
      res.writeHead(200, { "content-type": "application/json", "content-length": "50000000" });
      res.flushHeaders();
      return;
    }
    if (req.url === "/endless") {
      endlessClosed = new Promise((resolve) => res.once("close", () => resolve()));
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", more);
      };
      more();
      return;
    }
    if (req.url === "/silent") return; // never answers
    if (req.url === "/early-hints") {
      res.writeEarlyHints({ link: "</x>; rel=preload", "content-length": "50000000" });
      res.writeHead(200, [
        ["content-type", "application/json"],
        ["set-cookie", "a=1"],
        ["set-cookie", "b=2"],
      ]);
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"data":"é"}')]));
      return;
    }
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

describe("Transport: the answer's body", () => {
  const get = (transport: Transport, path: string) =>
    transport.send({
      method: "GET",
      url: new URL(`${base}${path}`),
      payload: undefined,
      headers: undefined,
      raw: false,
    });

  it("is refused at once when Content-Length announces more than the cap, with a cap that fits it", async () => {
    const transport = new Transport({ origin: base, concurrency: 1, timeoutMs: 5000, maxBodyBytes: 1024 });
    try {
      const t0 = Date.now();
      await expect(get(transport, "/announced")).rejects.toThrow(
        "HTTP 200: the response is larger than 1 KiB, the cap on one response; stopped reading it (raise the cap with --max-body, e.g. --max-body 64MiB)",
      );
      expect(Date.now() - t0).toBeLessThan(4000); // not the 5 s timeout
    } finally {
      await transport.close();
    }
  });

  it("stops reading a body that streams past the cap", async () => {
    const transport = new Transport({
      origin: base,
      concurrency: 1,
      timeoutMs: 5000,
      maxBodyBytes: 256 * 1024,
    });
    try {
      await expect(get(transport, "/endless")).rejects.toThrow(
        "the response is larger than 256 KiB, the cap on one response; stopped reading it (raise the cap with --max-body, e.g. --max-body 1MiB)",
      );
      // Aborted, not left to stream unread into the pool: the server sees the connection end.
      const ended = await Promise.race([
        endlessClosed!.then(() => "ended"),
        new Promise((resolve) => setTimeout(resolve, 2000, "still streaming")),
      ]);
      expect(ended).toBe("ended");
    } finally {
      await transport.close();
    }
  });

  it("ends with the run's signal, and with its timeout, when the server never answers", async () => {
    const run = new AbortController();
    const transport = new Transport({ origin: base, concurrency: 2, timeoutMs: 300, signal: run.signal });
    const patient = new Transport({ origin: base, concurrency: 1, timeoutMs: 20_000, signal: run.signal });
    try {
      await expect(get(transport, "/silent")).rejects.toThrow(/timed out after 300 ms|timeout/i);
      const pending = get(patient, "/silent");
      setTimeout(() => run.abort(), 50);
      const t0 = Date.now();
      await expect(pending).rejects.toMatchObject({ name: "InterruptedError" });
      expect(Date.now() - t0).toBeLessThan(2000); // at the signal, not at the timeout
      const before = new AbortController();
      before.abort();
      const early = new Transport({ origin: base, concurrency: 1, timeoutMs: 5000, signal: before.signal });
      await expect(get(early, "/ok")).rejects.toMatchObject({ name: "InterruptedError" });
      await early.close();
    } finally {
      await transport.close();
      await patient.close();
    }
  });

  it("skips a 1xx answer, keeps repeated headers and the status text, drops a byte order mark", async () => {
    // The 103's Content-Length is not the answer's: it must not trip the cap.
    const transport = new Transport({ origin: base, concurrency: 1, timeoutMs: 5000, maxBodyBytes: 1024 });
    try {
      const r = await get(transport, "/early-hints");
      expect(r.status).toBe(200);
      expect(r.statusText).toBe("OK");
      expect(r.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
      expect(r.text).toBe('{"data":"é"}');
      expect(r.body).toEqual({ data: "é" });
    } finally {
      await transport.close();
    }
  });
});
