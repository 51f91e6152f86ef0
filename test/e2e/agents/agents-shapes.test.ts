import { describe, expect, it } from "vitest";
import type { SandboxServer } from "../../../src/sandbox/server.js";
import { run } from "../../commands/harness.js";
import { useKeyedSandbox } from "../../commands/sandbox-runs.js";
import { sendJson } from "../hostile-server.js";

// agents against the shapes the provider documents, in-process through run(): --addresses and --ids
// sent as agent_addresses and agent_ids, 30 to a request, and rug_status shown when sent.

const { KEY, servers, dir, sandbox, cliAt: at } = useKeyedSandbox("agents-shapes");
const requests = (s: SandboxServer, path: string) => s.stats.byPath[path] ?? 0;

describe("agents by addresses and ids", () => {
  it("--addresses and --ids send agent_addresses and agent_ids, 30 to a request", async () => {
    const agents = sandbox.data.list("base", "virtuals").slice(0, 35);
    for (const [flag, param, values] of [
      ["--addresses", "agent_addresses", agents.map((t) => t.address)],
      ["--ids", "agent_ids", agents.map((t) => t.id)],
    ] as const) {
      const before = requests(sandbox, "/v1/agents");
      const r = await at(sandbox, ["agents", "-c", "base", flag, values.join(","), "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const records = JSON.parse(r.stdout) as Array<{ id: string }>;
      expect(records.map((x) => x.id)).toEqual(agents.map((t) => t.id));
      expect(requests(sandbox, "/v1/agents") - before, param).toBe(2);
    }
  });

  it("shows rug_status when sent and never requires it", async () => {
    const server = await servers.stub((_req, res) =>
      sendJson(res, { success: true, data: [{ id: "a1", agent_info: { symbol: "NORUG" } }] }),
    );
    const r = await run(
      ["--base-url", server.url, "agents", "-c", "base", "-o", "table", "--color", "never"],
      dir.path,
      {
        env: { TOKENINTEL_API_KEY: KEY },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/NORUG/);
  });
});
