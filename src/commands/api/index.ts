import { ENDPOINTS, type EndpointSpec, pathsOf } from "../../contract/endpoints.js";
import { UsageError } from "../../errors.js";
import { MAX_PAGES_HELP } from "../../flags/data.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const flags = flagTable({
  ...PAYMENT_FLAGS,
  method: {
    flags: "-X, --method <method>",
    description: "GET or POST",
    kind: "choice",
    choices: ["GET", "POST"],
    expected: "GET or POST",
    default: "GET",
  },
  field: {
    flags: "-f, --field <key=value>",
    description: "a query parameter (GET) or JSON body field (POST), as a string; repeatable",
    kind: "repeated",
  },
  rawField: {
    flags: "-F, --raw-field <key=value>",
    description: "like -f, but typed: numbers, true/false, null, @file (or @- for stdin)",
    kind: "repeated",
  },
  input: {
    flags: "--input <file>",
    description: "send this file (or - for stdin) as the JSON body of a POST",
    kind: "text",
  },
  paginate: {
    flags: "--paginate",
    description: "walk page=1.. and print all records as ONE JSON document",
    kind: "switch",
  },
  ndjson: { flags: "--ndjson", description: "with --paginate: one record per line instead", kind: "switch" },
  limit: { flags: "-l, --limit <n>", description: "with --paginate: stop after n records", kind: "count" },
  maxPages: { flags: "--max-pages <n>", description: `with --paginate: ${MAX_PAGES_HELP}`, kind: "count" },
  include: {
    flags: "-i, --include",
    description: "print the status line and response headers to stderr",
    kind: "switch",
  },
  silent: { flags: "--silent", description: "print nothing on success", kind: "switch" },
  list: {
    flags: "--list",
    description:
      "print every endpoint the provider documents: its paths (older, newer), method, price in USDC a call, and the command that reads it",
    kind: "switch",
  },
});

/** Every documented path, for completion: both generations, as the registry spells them. */
const PATHS = Object.values(ENDPOINTS as Record<string, EndpointSpec>).flatMap((entry) =>
  pathsOf(entry).filter((path) => path === entry.path || path === entry.newerPath),
);

export default defineCommand({
  name: "api",
  description: "call any API path with your key, retries and safety rules; the output is made for jq",
  flags,
  args: [
    {
      name: "[path]",
      description: "a path under the base URL, e.g. /v1/trending ('tokenintel api --list' names them)",
      values: PATHS,
    },
  ],
  examples: [
    "tokenintel api --list",
    "tokenintel api /v1/trending -f chain=base | jq '.data[].token_symbol'",
    "tokenintel api /v1/trending -f chain=solana --paginate | jq length",
    "tokenintel api -X POST /v1/ask-loky -f question='top agents on base' -f chain=base | jq -r .data.nlpResponse",
    `echo '{"question":"what is trending?"}' | tokenintel api -X POST /v1/ask-loky --input -`,
  ],
  notes:
    "Query parameters may be written in the path (/v1/agents?chain=base) or with -f; one given both ways is an error. --paginate starts at the page asked for (page=3). There is no --jq: pipe the output into jq, as above. With --pay, an offer above the price 'tokenintel api --list' gives a path is refused (exit 5) unless --max-payment allows it.",
  async run(ctx, opts, [path]) {
    if (opts.list) {
      if (path !== undefined) throw new UsageError("--list takes no path");
      const { endpointListing } = await import("./list.js");
      return ctx.io.out(endpointListing());
    }
    if (path === undefined)
      throw new UsageError("api needs a path, e.g. /v1/trending ('tokenintel api --list' names them)");
    const { runApi } = await import("./run.js");
    await runApi(ctx, path, opts);
  },
});
