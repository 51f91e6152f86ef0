import type { Context } from "../context.js";
import { AuthError, InterruptedError, UsageError } from "../errors.js";

const KEY_PATTERN = /^[\x21-\x7e]{8,512}$/;

/** Shows enough of a key to recognise it, never enough to use it. */
export function maskKey(key: string): string {
  if (key.length < 16) return "*".repeat(8);
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

export async function runLogin(ctx: Context, options: { withToken?: boolean }): Promise<void> {
  let key: string;
  if (options.withToken) key = (await readAll(process.stdin)).trim().split(/\r?\n/)[0]?.trim() ?? "";
  else if (process.stdin.isTTY) key = (await promptHidden(ctx, "API key (input hidden): ")).trim();
  else throw new UsageError("auth login: no terminal to ask on; pipe the key in with --with-token");
  if (!key) throw new UsageError("auth login: no key given");
  if (!KEY_PATTERN.test(key)) {
    throw new UsageError(
      "auth login: that does not look like an API key (8-512 printable characters, no spaces)",
    );
  }
  ctx.io.addSecret(key);
  const store = await ctx.store();
  store.setApiKey(key);
  ctx.io.err(`tokenintel: key saved to ${store.path} (readable by you only)`);
  if (ctx.env.TOKENINTEL_API_KEY) {
    ctx.io.warn("TOKENINTEL_API_KEY is set in the environment and takes precedence over the stored key");
  }
}

export async function runStatus(ctx: Context): Promise<void> {
  const store = await ctx.store();
  const active = await ctx.resolveApiKey();
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
  await ctx.io.out(`API key: ${maskKey(active.key)}\nSource:  ${where[active.source]}\n`);
}

export async function runLogout(ctx: Context): Promise<void> {
  const store = await ctx.store();
  const removed = store.deleteApiKey();
  ctx.io.err(removed ? `tokenintel: key removed from ${store.path}` : "tokenintel: no key was stored");
  if (ctx.env.TOKENINTEL_API_KEY) ctx.io.warn("TOKENINTEL_API_KEY is still set in the environment");
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(ctx: Context, prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Echo goes off before the prompt shows: a key typed as soon as the prompt appears must not be
  // echoed by the terminal in the moment between the two.
  stdin.setRawMode(true);
  ctx.io.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = "";
    stdin.resume();
    stdin.setEncoding("utf8");
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      ctx.io.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return finish();
        if (ch === "\u0003") return finish(new InterruptedError());
        if (ch === "\u0004") return finish();
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    stdin.on("data", onData);
  });
}
