import { describe, expect, it } from "vitest";
import { recordSchemaFor } from "../../../src/api/schemas.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel agents` run in-process through run() against the sandbox: a list of tickers is sent as
// agent_tickers, and the records carry rug_status.

const { sandbox, cli } = useKeyedSandbox("agents", { taStyle: "flat" });

describe("agents", () => {
  it("agents sends --tickers as agent_tickers and returns rug_status", async () => {
    const agents = sandbox.data.list("base", "virtuals").slice(3, 5);
    const r = await cli([
      "agents",
      "-c",
      "base",
      "--tickers",
      agents.map((a) => a.symbol).join(","),
      "--json",
    ]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ id: string; rug_status: string }>;
    expect(records).toEqual(agents.map((a) => sandbox.data.agentRecord(a)));
    for (const record of records)
      expect(recordSchemaFor("agents", "strict").safeParse(record).success).toBe(true);
  });
});
