import { describe, expect, it } from "vitest";
import { run } from "../harness.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel api -i`, in-process through run() against the sandbox and raw servers: the status
// line carries the reason phrase, a server's own made inert and bounded.

const { KEY, servers, sandbox } = useKeyedSandbox("reason");
const freshDir = () => servers.folder();

/** A raw TCP server that answers every request with `head` (status line and headers) and `body`. */
const rawServer = (head: string, body: string): Promise<{ url: string }> =>
  servers.raw((socket) => {
    socket.once("data", () => {
      socket.end(
        Buffer.concat([
          Buffer.from(head, "latin1"),
          Buffer.from(`\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n`),
          Buffer.from(`connection: close\r\n\r\n${body}`),
        ]),
      );
    });
  });

describe("api -i shows the reason phrase", () => {
  it("the standard phrase from the sandbox", async () => {
    const r = await run(["--base-url", sandbox.url, "api", "/v1/nope", "-i"], freshDir(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe("HTTP/1.1 404 Not Found");
  });
  it("a server's own phrase, made inert: no escapes, printable ASCII only, bounded", async () => {
    const { url } = await rawServer(
      "HTTP/1.1 404 Gone \x1b]0;pwned\x07\x1b[31mfishing\x9b2J\x80\xff",
      '{"success":false}',
    );
    {
      const r = await run(["--base-url", url, "--retries", "0", "api", "/v1/x", "-i"], freshDir());
      expect(r.code).toBe(1);
      expect(r.stderr.split("\n")[0]).toBe("HTTP/1.1 404 Gone fishing2J");
      expect(r.stderr).not.toMatch(/[^\n\x20-\x7e]/);
    }
    const long = await rawServer(`HTTP/1.1 200 ${"A".repeat(500)}`, '{"success":true}');
    {
      const r = await run(["--base-url", long.url, "api", "/v1/x", "-i"], freshDir());
      expect(r.code).toBe(0);
      expect(r.stderr.split("\n")[0]).toBe(`HTTP/1.1 200 ${"A".repeat(64)}…`);
    }
  });
});
