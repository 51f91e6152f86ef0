import { describe, expect, it } from "vitest";
import MARKET_COMMAND from "../../../src/commands/market/index.js";
import { dotPaths, MARKET_RECORD } from "../../../src/contract/shapes.js";
import { COMMANDS, HIDDEN_COMMANDS } from "../../../src/program.js";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `tokenintel schema`: the command surface as JSON, from the tables help and MCP are made from.

const servers = useServers();

interface Described {
  name: string;
  options: Array<{ name: string; type: string; json_type: string; choices?: string[]; repeatable: boolean }>;
  returns?: {
    kind: string;
    fields?: Array<{ path: string; kind: string }>;
    schema?: Record<string, unknown>;
  };
  mcp_tool?: string;
  subcommands?: Described[];
}

describe("tokenintel schema", () => {
  it("describes every command, its options and what it returns", async () => {
    const r = await run(["schema"], servers.folder());
    expect(r.code, r.stderr).toBe(0);
    const surface = JSON.parse(r.stdout) as { commands: Described[]; global_options: Described["options"] };
    expect(surface.commands.map((c) => c.name)).toEqual(
      Object.keys(COMMANDS).filter((n) => !HIDDEN_COMMANDS.has(n)),
    );
    expect(surface.global_options.map((o) => o.name)).toContain("--base-url");
    const market = surface.commands.find((c) => c.name === "market")!;
    expect(market.options.map((o) => o.name)).toEqual(
      Object.values(MARKET_COMMAND.flags).map((f) => /--[\w-]+/.exec(f.flags)![0]),
    );
    expect(market.options.find((o) => o.name === "--chain")).toMatchObject({
      type: "choice",
      choices: ["base", "solana"],
    });
    expect(market.options.find((o) => o.name === "--tickers")).toMatchObject({
      json_type: "array",
      repeatable: true,
    });
    const leaves = dotPaths(MARKET_RECORD).filter(
      (p) => !dotPaths(MARKET_RECORD).some((q) => q.startsWith(`${p}.`)),
    );
    expect(market.returns!.fields!.map((f) => f.path)).toEqual(leaves);
    expect(market.returns!.fields!.find((f) => f.path === "token_metrics.usd_price")!.kind).toBe("decimal");
    expect(market.mcp_tool).toBe("market");
    const check = surface.commands.find((c) => c.name === "check")!;
    expect(check.returns).toMatchObject({ kind: "answer", schema: { type: "object" } });
    expect(surface.commands.find((c) => c.name === "auth")!.subcommands!.map((s) => s.name)).toContain(
      "auth login",
    );
  });

  it("one command, a subcommand, and an unknown one named with a suggestion (exit 2)", async () => {
    const folder = servers.folder();
    const one = JSON.parse((await run(["schema", "history"], folder)).stdout) as Described;
    expect(one.name).toBe("history");
    expect(one.mcp_tool).toBe("history");
    const sub = await run(["schema", "auth", "login"], folder);
    expect((JSON.parse(sub.stdout) as Described).name).toBe("auth login");
    const typo = await run(["schema", "markt"], folder);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('tokenintel: schema: unknown command "markt" (did you mean market?)\n');
  });
});
