import type { ConfigStore } from "../../config/store.js";
import type { RunContext } from "../../context.js";
import { AuthError, UsageError } from "../../errors.js";

const KEY_PATTERN = /^[\x21-\x7e]{8,512}$/;

/** Shows enough of a key to recognise it, never enough to use it. */
export function maskKey(key: string): string {
  if (key.length < 16) return "*".repeat(8);
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

/**
 * The store `auth` reads and writes: the real one, or with --sandbox the sandbox profile (a store
 * of its own in the config folder), so that trying `auth login` against the sandbox never touches
 * the real key.
 */
async function authStore(ctx: RunContext): Promise<ConfigStore> {
  if (!ctx.settings.globals.sandbox) return ctx.store();
  const [{ ConfigStore }, { sandboxProfileEnv }] = await Promise.all([
    import("../../config/store.js"),
    import("../../settings.js"),
  ]);
  return ConfigStore.open(sandboxProfileEnv(ctx.io.env));
}

/** The key to save: from --api-key, from stdin (--with-token), or asked for without echo. */
async function keyToSave(ctx: RunContext, withToken: boolean | undefined): Promise<string> {
  const fromFlag = ctx.settings.globals.apiKey;
  if (fromFlag !== undefined && withToken)
    throw new UsageError("auth login: --api-key and --with-token both give a key; use one");
  if (fromFlag !== undefined) return fromFlag.trim();
  if (withToken) return (await ctx.io.readInput("--with-token")).trim().split(/\r?\n/)[0]?.trim() ?? "";
  if (ctx.io.stdinIsTTY) return (await ctx.io.promptHidden("API key (input hidden): ")).trim();
  throw new UsageError("auth login: no terminal to ask on; pipe the key in with --with-token");
}

export async function runLogin(
  ctx: RunContext,
  options: { withToken?: boolean; verify?: boolean },
): Promise<void> {
  const key = await keyToSave(ctx, options.withToken);
  if (!key) throw new UsageError("auth login: no key given");
  if (!KEY_PATTERN.test(key)) {
    throw new UsageError(
      "auth login: that does not look like an API key (8-512 printable characters, no spaces)",
    );
  }
  ctx.io.addSecret(key);
  const sandbox = Boolean(ctx.settings.globals.sandbox);
  // Checked before it is stored (--no-verify: offline); a key the service rejects is not kept.
  if (options.verify !== false) {
    const { checkKey, rejectedError, uncheckedError } = await import("./verify.js");
    const check = await checkKey(ctx, key);
    if (check.verdict === "rejected") {
      const hint = sandbox ? `; the sandbox takes only its demo key, ${await ctx.settings.sandboxKey()}` : "";
      throw rejectedError(check, "the key", `; nothing saved${hint}`);
    }
    if (check.verdict === "unchecked")
      throw uncheckedError(check, "the key", "; nothing saved (--no-verify saves it unchecked)");
  }
  const store = await authStore(ctx);
  store.setApiKey(key);
  if (sandbox) {
    ctx.io.info(
      `tokenintel: key saved to the sandbox profile ${store.path} (used with --sandbox only; the real key is untouched)`,
    );
    return;
  }
  ctx.io.info(`tokenintel: key saved to ${store.path} (readable by you only)`);
  if (ctx.io.env.TOKENINTEL_API_KEY) {
    ctx.io.warn("TOKENINTEL_API_KEY is set in the environment and takes precedence over the stored key");
  }
}

export async function runStatus(ctx: RunContext): Promise<void> {
  const store = await authStore(ctx);
  const active = await ctx.settings.apiKey();
  const where = {
    flag: "the --api-key flag",
    env: "the environment (TOKENINTEL_API_KEY)",
    store: ctx.settings.globals.sandbox
      ? `the sandbox profile (${store.path})`
      : `the config store (${store.path})`,
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
  await labelled(ctx, [
    ["API key:", maskKey(active.key)],
    ["Source:", where[active.source]],
  ]);
  // Like `gh auth status`: the service has the last word on the key (exit 4 when it says no).
  const { checkKey, rejectedError, uncheckedError } = await import("./verify.js");
  const check = await checkKey(ctx);
  if (check.verdict === "rejected") throw rejectedError(check, "the API key");
  if (check.verdict === "unchecked") throw uncheckedError(check, "the API key");
  await labelled(ctx, [["Status:", `accepted by ${check.server}`]]);
}

/**
 * `Label:  value` lines; on a terminal laid out by cli-table3 at its width, so that a long value
 * (a config path, a server's URL) wraps under itself instead of running past the edge.
 */
async function labelled(ctx: RunContext, pairs: Array<[string, string]>): Promise<void> {
  if (!ctx.io.stdoutIsTTY) {
    await ctx.io.out(pairs.map(([label, value]) => `${label.padEnd(9)}${value}\n`).join(""));
    return;
  }
  const { wrapRows } = await import("../../output/wrap.js");
  const rows = pairs.map(([label, value]) => [{ text: label.padEnd(8) }, { text: value, wrap: true }]);
  await ctx.io.out(wrapRows(rows, { width: ctx.io.columns, separator: " ", floors: [8, 10] }));
}

export async function runLogout(ctx: RunContext): Promise<void> {
  const store = await authStore(ctx);
  const removed = store.deleteApiKey();
  const where = ctx.settings.globals.sandbox ? "the sandbox profile " : "";
  ctx.io.info(
    removed
      ? `tokenintel: key removed from ${where}${store.path}`
      : `tokenintel: no key was stored${where ? " in the sandbox profile" : ""}`,
  );
  if (ctx.io.env.TOKENINTEL_API_KEY && !ctx.settings.globals.sandbox)
    ctx.io.warn("TOKENINTEL_API_KEY is still set in the environment");
}
