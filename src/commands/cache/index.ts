import { defineCommand } from "../command.js";

const clear = defineCommand({
  name: "clear",
  description: "remove every cached answer",
  flags: {},
  async run(ctx) {
    const cache = await ctx.cache();
    const removed = cache.clear();
    ctx.io.info(`tokenintel: removed ${removed} cached answer${removed === 1 ? "" : "s"} from ${cache.dir}`);
  },
});

const path = defineCommand({
  name: "path",
  description: "print the folder cached answers are kept in",
  flags: {},
  async run(ctx) {
    await ctx.io.out(`${(await ctx.cache()).dir}\n`);
  },
});

export default defineCommand({
  name: "cache",
  description: "the response cache behind --cache <ttl>: where it is, and emptying it",
  flags: {},
  examples: ["tokenintel cache path", "tokenintel cache clear"],
  notes: `A GET repeated within the TTL (--cache <ttl>, TOKENINTEL_CACHE or 'config set cache <ttl>') is
answered from disk without a request, paid answers included; --no-cache bypasses it. Entries are
kept apart per API key (by a digest of it) and never hold the key or payment headers.`,
  subcommands: [clear, path],
});
