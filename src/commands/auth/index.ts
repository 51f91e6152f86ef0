import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const login = defineCommand({
  name: "login",
  description: "save an API key: asks for it without echo, or reads it from stdin with --with-token",
  flags: flagTable({
    withToken: { flags: "--with-token", description: "read the key from standard input", kind: "switch" },
  }),
  examples: ["tokenintel auth login", "printf '%s' \"$KEY\" | tokenintel auth login --with-token"],
  async run(ctx, opts) {
    const { runLogin } = await import("./run.js");
    await runLogin(ctx, opts);
  },
});

const status = defineCommand({
  name: "status",
  description: "say which key is active and where it comes from (masked)",
  flags: {},
  async run(ctx) {
    const { runStatus } = await import("./run.js");
    await runStatus(ctx);
  },
});

const logout = defineCommand({
  name: "logout",
  description: "remove the stored key",
  flags: {},
  async run(ctx) {
    const { runLogout } = await import("./run.js");
    await runLogout(ctx);
  },
});

export default defineCommand({
  name: "auth",
  description: "manage the API key kept in the local config store",
  flags: {},
  subcommands: [login, status, logout],
});
