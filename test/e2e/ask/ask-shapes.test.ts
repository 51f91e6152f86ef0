import { describe, expect, it } from "vitest";
import type { SandboxOptions, SandboxServer } from "../../../src/sandbox/server.js";
import { run } from "../../commands/harness.js";
import { useKeyedSandbox } from "../../commands/sandbox-runs.js";
import { sendJson } from "../hostile-server.js";

// ask against the shapes the provider documents, in-process through run(): the bare answer as well
// as {success, data}, and an answer without tokenDetails.

const { KEY, servers, dir, sandbox, cliAt: at } = useKeyedSandbox("ask-shapes");
const start = (options: SandboxOptions = {}): Promise<SandboxServer> =>
  servers.sandbox({ apiKey: KEY, ...options });

describe("ask", () => {
  it("reads the bare answer of the provider's docs as well as {success, data}", async () => {
    const bare = await start({ askStyle: "bare" });
    const token = bare.data.list("base", undefined)[33]!;
    for (const s of [bare, sandbox]) {
      const r = await at(s, ["ask", `how is $${token.symbol} doing`, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const answer = JSON.parse(r.stdout) as {
        nlpResponse: string;
        tokenDetails: Array<{ token_id: string }>;
      };
      expect(answer.nlpResponse).toMatch(new RegExp(`\\*\\*${token.symbol}\\*\\*`));
      expect(answer.tokenDetails.map((d) => d.token_id)).toEqual([token.id]);
    }
  });

  it("an answer without tokenDetails prints the answer alone", async () => {
    const server = await servers.stub((_req, res) =>
      sendJson(res, { questionId: "q", answerId: "a", nlpResponse: "Calm day." }),
    );
    const r = await run(
      ["--base-url", server.url, "ask", "anything", "-o", "table", "--color", "never"],
      dir.path,
      {
        env: { TOKENINTEL_API_KEY: KEY },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Calm day\./);
  });
});
