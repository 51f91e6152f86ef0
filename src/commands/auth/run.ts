import type { RunContext } from "../../context.js";
import { AuthError, UsageError } from "../../errors.js";

const KEY_PATTERN = /^[\x21-\x7e]{8,512}$/;

/** Shows enough of a key to recognise it, never enough to use it. */
export function maskKey(key: string): string {
  if (key.length < 16) return "*".repeat(8);
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

export async function runLogin(
  ctx: RunContext,
  options: { withToken?: boolean; verify?: boolean },
): Promise<void> {
  let key: string;
  if (options.withToken)
    key = (await ctx.io.readInput("--with-token")).trim().split(/\r?\n/)[0]?.trim() ?? "";
  else if (ctx.io.stdinIsTTY) key = (await ctx.io.promptHidden("API key (input hidden): ")).trim();
  else throw new UsageError("auth login: no terminal to ask on; pipe the key in with --with-token");
  if (!key) throw new UsageError("auth login: no key given");
  if (!KEY_PATTERN.test(key)) {
    throw new UsageError(
      "auth login: that does not look like an API key (8-512 printable characters, no spaces)",
    );
  }
  ctx.io.addSecret(key);
  // Checked before it is stored (--no-verify: offline); a key the service rejects is not kept.
  if (options.verify !== false) {
    const { checkKey, rejectedError, uncheckedError } = await import("./verify.js");
    const check = await checkKey(ctx, key);
    if (check.verdict === "rejected") throw rejectedError(check, "the key", "; nothing saved");
    if (check.verdict === "unchecked")
      throw uncheckedError(check, "the key", "; nothing saved (--no-verify saves it unchecked)");
  }
  const store = await ctx.store();
  store.setApiKey(key);
  ctx.io.info(`tokenintel: key saved to ${store.path} (readable by you only)`);
  if (ctx.io.env.TOKENINTEL_API_KEY) {
    ctx.io.warn("TOKENINTEL_API_KEY is set in the environment and takes precedence over the stored key");
  }
}

export async function runStatus(ctx: RunContext): Promise<void> {
  const store = await ctx.store();
  const active = await ctx.settings.apiKey();
  const where = {
    flag: "the --api-key flag",
    env: "the environment (TOKENINTEL_API_KEY)",
    store: `the config store (${store.path})`,
    sandbox: "the sandbox's demo key (--sandbox)",
  } as const;
  const mode = store.fileMode();
  if (mode !== undefined && (mode & 0o077) !== 0) {
    ctx.io.warn(
      `${store.path} is readable by others (mode ${mode.toString(8).padStart(4, "0")}); run: chmod 600 '${store.path}'`,
    );
  }
  if (!active) {
    throw new AuthError("not logged in: run 'tokenintel auth login', or set TOKENINTEL_API_KEY");
  }
  ctx.io.addSecret(active.key);
  await ctx.io.out(`API key: ${maskKey(active.key)}\nSource:  ${where[active.source]}\n`);
  // Like `gh auth status`: the service has the last word on the key (exit 4 when it says no).
  const { checkKey, rejectedError, uncheckedError } = await import("./verify.js");
  const check = await checkKey(ctx);
  if (check.verdict === "rejected") throw rejectedError(check, "the API key");
  if (check.verdict === "unchecked") throw uncheckedError(check, "the API key");
  await ctx.io.out(`Status:  accepted by ${check.server}\n`);
}

export async function runLogout(ctx: RunContext): Promise<void> {
  const store = await ctx.store();
  const removed = store.deleteApiKey();
  ctx.io.info(removed ? `tokenintel: key removed from ${store.path}` : "tokenintel: no key was stored");
  if (ctx.io.env.TOKENINTEL_API_KEY) ctx.io.warn("TOKENINTEL_API_KEY is still set in the environment");
}
