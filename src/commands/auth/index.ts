import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const login = defineCommand({
  name: "login",
  description:
    "save an API key: asks for it without echo, reads it from stdin with --with-token, or takes --api-key",
  flags: flagTable({
    withToken: { flags: "--with-token", description: "read the key from standard input", kind: "switch" },
    verify: {
      flags: "--no-verify",
      description: "save the key without checking it with the service first (offline)",
      kind: "switch",
    },
  }),
  examples: [
    "tokenintel auth login",
    "printf '%s' \"$KEY\" | tokenintel auth login --with-token",
    "printf '%s' \"$KEY\" | tokenintel auth login --with-token --no-verify",
    "printf '%s' ti_sandbox_demo_key_4f9a2c | tokenintel auth login --sandbox --with-token",
  ],
  notes: `The key is checked with one request to the market endpoint (never paid) before it is saved:
a key the service rejects is not saved (exit 4); when the service cannot be reached, nothing is
saved (exit 1) unless --no-verify.

With --sandbox, login, status and logout try the same steps against the local sandbox: the key
is checked by the sandbox (which takes only its demo key, ti_sandbox_demo_key_4f9a2c) and saved
to a sandbox profile of its own (the config folder's sandbox/), used by --sandbox runs only. The
real key is never read, written or removed with --sandbox.`,
  async run(ctx, opts) {
    const { runLogin } = await import("./run.js");
    await runLogin(ctx, opts);
  },
});

const status = defineCommand({
  name: "status",
  description: "say which key is active, where it comes from (masked), and whether the service accepts it",
  flags: {},
  examples: ["tokenintel auth status", "tokenintel auth status --sandbox"],
  notes: `Checks the key with one request to the market endpoint (one token; never paid, never cached).
With --sandbox: the sandbox profile's key (auth login --sandbox), else the sandbox's demo key,
checked against the sandbox.
Exit 0: accepted. Exit 4: no key, or the service rejected it (401/403, or 402: it asked for a
payment instead of taking the key). Exit 1: it could not be checked (network, timeout, server
error); the lines about the key are printed all the same.`,
  async run(ctx) {
    const { runStatus } = await import("./run.js");
    await runStatus(ctx);
  },
});

const logout = defineCommand({
  name: "logout",
  description: "remove the stored key (with --sandbox: the sandbox profile's)",
  flags: {},
  async run(ctx) {
    const { runLogout } = await import("./run.js");
    await runLogout(ctx);
  },
});

export default defineCommand({
  name: "auth",
  description: "manage the API key kept in the local config store (with --sandbox: a sandbox profile)",
  flags: {},
  subcommands: [login, status, logout],
});
