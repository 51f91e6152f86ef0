import { describe, expect, it } from "vitest";
import { ENDPOINTS, type EndpointSpec } from "../../../src/contract/endpoints.js";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `tokenintel api --list`, run in-process through run(): every endpoint of the registry, a line each.

const servers = useServers();
const rows = (stdout: string) => stdout.trimEnd().split("\n");

describe("api --list", () => {
  it("prints every registry endpoint: paths, method, price and the command that reads it", async () => {
    const r = await run(["api", "--list"], servers.folder());
    expect(r.code, r.stderr).toBe(0);
    const lines = rows(r.stdout);
    expect(lines[0]).toMatch(/^PATH\s+NEWER PATH\s+METHOD\s+USDC\s+COMMAND$/);
    const entries = Object.values(ENDPOINTS as Record<string, EndpointSpec>);
    expect(lines).toHaveLength(entries.length + 1);
    entries.forEach((e, i) => {
      const command = typeof e.command === "string" ? [e.command, e.commandFlag ?? []].flat() : ["api"];
      expect(lines[i + 1]!.split(/\s+/)).toEqual([e.path, e.newerPath ?? "-", e.method, e.price, ...command]);
    });
    expect(r.stdout).toMatch(/^\/v1\/smart-money-trends\s+-\s+GET\s+0\.005\s+smart-money$/m);
    expect(r.stdout).toMatch(/^\/v1\/mcp\/\s+-\s+POST\s+0\.10\s+ask --deep$/m);
    expect(r.stdout).toMatch(/^\/v1\/live-perp-strategy\/\s+-\s+GET\s+0\.50\s+api$/m);
    const both = await run(["api", "--list", "/v1/trending"], servers.folder());
    expect(both.code).toBe(2);
  });
});
