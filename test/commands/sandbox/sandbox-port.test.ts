import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `tokenintel sandbox --port`, in-process through run(): a port already in use is one line and
// exit 1.

const servers = useServers();
const freshDir = () => servers.folder();

describe("sandbox --port on a busy port", () => {
  it("is one line and exit 1, no stack trace", async () => {
    const { port } = await servers.raw();
    const r = await run(["sandbox", "--port", String(port)], freshDir());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `tokenintel: sandbox: 127.0.0.1:${port} is already in use; pick another --port, or --port 0 for a free one\n`,
    );
  });
});
