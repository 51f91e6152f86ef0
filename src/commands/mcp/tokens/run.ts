import type { RunContext } from "../../../context.js";
import { type CliError, UsageError } from "../../../errors.js";
import { alignColumns } from "../../../output/width.js";
import {
  changeTokens,
  checkName,
  hashToken,
  MAX_TOKENS,
  mintToken,
  readTokens,
  type StoredToken,
  tokensFile,
} from "./store.js";

// The work of `tokenintel mcp tokens add|list|revoke`. A token reaches stdout once, from add,
// alone on its line; after that it is a secret of the run, masked wherever else it would show.

/** A name, or a usage error (exit 2) saying what a name may hold. */
function nameOf(name: string): string {
  try {
    return checkName(name);
  } catch (error) {
    throw new UsageError((error as CliError).message);
  }
}

export async function addToken(
  ctx: RunContext,
  name: string,
  caps: { dailyCap?: string | undefined; maxSpend?: string | undefined },
): Promise<void> {
  const file = tokensFile(ctx.io.env);
  nameOf(name);
  const token = mintToken();
  changeTokens(file, (tokens) => {
    if (tokens.some((t) => t.name === name))
      throw new UsageError(
        `a token named ${name} exists: revoke it first ('tokenintel mcp tokens revoke ${name}')`,
      );
    if (tokens.length >= MAX_TOKENS)
      throw new UsageError(`there are ${MAX_TOKENS} tokens already: revoke one first`);
    tokens.push({
      name,
      hash: hashToken(token),
      created: new Date().toISOString(),
      ...(caps.dailyCap ? { dailyCap: caps.dailyCap } : {}),
      ...(caps.maxSpend ? { maxSpend: caps.maxSpend } : {}),
    });
  });
  await ctx.io.out(`${token}\n`);
  ctx.io.addSecret(token);
  ctx.io.info(
    `tokenintel: token ${name} made; it is shown this once (${file} keeps its hash alone). A client sends it as the header 'Authorization: Bearer <token>'.`,
  );
}

const when = (iso: string | undefined) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "never");

/** One row a token, in columns: nothing a token could be read back from. */
function rows(tokens: readonly StoredToken[]): string {
  const table = [
    ["NAME", "DAILY CAP", "MAX SPEND", "CREATED", "LAST USED"],
    ...tokens.map((t) => [t.name, t.dailyCap ?? "-", t.maxSpend ?? "-", when(t.created), when(t.lastUsed)]),
  ];
  return alignColumns(table);
}

export async function listTokens(ctx: RunContext): Promise<void> {
  const tokens = readTokens(tokensFile(ctx.io.env));
  if (!tokens.length) {
    ctx.io.info("tokenintel: no tokens yet: make one with 'tokenintel mcp tokens add NAME'");
    return;
  }
  await ctx.io.out(`${rows(tokens)}\n`);
}

export async function revokeToken(ctx: RunContext, name: string): Promise<void> {
  nameOf(name);
  const file = tokensFile(ctx.io.env);
  changeTokens(file, (tokens) => {
    const at = tokens.findIndex((t) => t.name === name);
    if (at < 0) {
      const names = tokens.map((t) => t.name).join(", ") || "none";
      throw new UsageError(`no token named ${name} (tokens: ${names})`);
    }
    tokens.splice(at, 1);
  });
  ctx.io.info(`tokenintel: token ${name} revoked: a server running now refuses it from its next request`);
}
