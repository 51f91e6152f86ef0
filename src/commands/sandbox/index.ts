import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const share = (flags: string, description: string) => ({ flags, description, kind: "share" }) as const;

const flags = flagTable({
  port: {
    flags: "--port <port>",
    description: "port to listen on (0 picks a free one)",
    kind: "whole",
    what: "from 0 to 65535",
    max: 65535,
    default: "4020",
  },
  host: {
    flags: "--host <host>",
    description: "loopback address to listen on",
    kind: "text",
    default: "127.0.0.1",
  },
  tokens: {
    flags: "--tokens <n>",
    description: "tokens on base (solana gets 30% of that); default 1000",
    kind: "count",
  },
  seed: { flags: "--seed <n>", description: "seed for the data and the faults", kind: "whole" },
  key: {
    flags: "--key <key>",
    description: "the API key it accepts (default: the printed demo key)",
    kind: "text",
  },
  latency: {
    flags: "--latency <ms>",
    description:
      "each answer leaves this many ms after its request came, as over a network (the sandbox's own work inside it)",
    kind: "whole",
  },
  live: {
    flags: "--live <interval>",
    description:
      "markets move: prices and metrics change every interval (1, 5s, 2m: the one duration grammar)",
    kind: "duration",
  },
  failRate: share("--fail-rate <p>", "share of requests answered 502"),
  throttleRate: share("--throttle-rate <p>", "share of requests throttled"),
  throttleStatus: {
    flags: "--throttle-status <code>",
    description: "status for throttled requests (default 429; the live service uses 423)",
    kind: "whole",
    what: "(a 4xx or 5xx status)",
    max: 599,
  },
  resetRate: share("--reset-rate <p>", "share of connections reset before answering"),
  truncateRate: share("--truncate-rate <p>", "share of answers cut off halfway"),
  htmlRate: share("--html-rate <p>", "share of requests answered with a gateway's HTML page"),
  hangRate: share("--hang-rate <p>", "share of requests never answered"),
  duplicateRate: share("--duplicate-rate <p>", "share of pages that repeat a record of the page before"),
  maxInFlight: {
    flags: "--max-in-flight <n>",
    description: "throttle requests beyond this many in flight (a concurrency quota)",
    kind: "count",
  },
  directoryStyle: {
    flags: "--directory-style <style>",
    description: "directory answers: envelope (spec), bare (array) or paginated",
    kind: "choice",
    choices: ["envelope", "bare", "paginated"],
    what: "directory style",
  },
  x402Version: {
    flags: "--x402-version <n>",
    description: "x402 protocol version for keyless directory requests: 1 or 2",
    kind: "choice",
    choices: ["1", "2"],
    what: "x402 version",
  },
  x402Network: {
    flags: "--x402-network <names>",
    description:
      "where keyless directory requests are paid, offers in this order: base (default), polygon, base-sepolia, e.g. polygon,base",
    kind: "list",
    suggest: ["base", "polygon", "base-sepolia", "polygon,base"],
  },
  x402Price: {
    flags: "--x402-price <amount>",
    description: "USDC per keyless directory request (default 0.005)",
    kind: "amount",
  },
  x402DomainName: {
    flags: "--x402-domain-name <name>",
    description: "name another EIP-712 domain in the requirements (to test refusals)",
    kind: "text",
  },
  taStyle: {
    flags: "--ta-style <style>",
    description:
      "TA records: documented (the default, as the provider documents them: token_id, indicators per interval) or flat (the older form)",
    kind: "choice",
    choices: ["documented", "flat"],
    what: "TA style",
  },
  askStyle: {
    flags: "--ask-style <style>",
    description: "ask answers: an envelope ({success, data}) or bare, the two forms the docs give",
    kind: "choice",
    choices: ["envelope", "bare"],
    what: "ask style",
  },
  paginationKeys: {
    flags: "--pagination-keys <keys>",
    description:
      "page counts as page-count ({pageCount, total}), total-pages ({totalPages, totalRecords}) or none",
    kind: "choice",
    choices: ["page-count", "total-pages", "none"],
    what: "key set",
  },
  paginationStrings: {
    flags: "--pagination-strings",
    description: "send the page counts as strings",
    kind: "switch",
  },
  marketStyle: {
    flags: "--market-style <style>",
    description: "market numbers: strings (the older docs) or numbers (the newer, with market_cap_usd)",
    kind: "choice",
    choices: ["strings", "numbers"],
    what: "market style",
  },
});

export default defineCommand({
  name: "sandbox",
  description: "run the local sandbox API (deterministic synthetic data, with fault injection for testing)",
  flags,
  examples: [
    "tokenintel sandbox",
    "tokenintel sandbox --port 0 --latency 50 --throttle-rate 0.1 --seed 7",
    "tokenintel sandbox --port 0 --x402-network polygon,base --ta-style flat",
  ],
  async run(ctx, opts) {
    const { runSandbox } = await import("./run.js");
    await runSandbox(ctx, opts);
  },
});
