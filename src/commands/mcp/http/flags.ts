import { flagTable } from "../../../flags/table.js";

// The flags of `mcp --http` (data only: the command's help reads them without loading the server).

export const HTTP_FLAGS = flagTable({
  http: {
    flags: "--http <[host:]port>",
    description:
      "serve over Streamable HTTP at /mcp instead of stdio, to clients with a token ('mcp tokens add'); on 127.0.0.1 unless a host is given; port 0 picks a free one",
    kind: "text",
  },
  allowedHosts: {
    flags: "--allowed-hosts <names>",
    description:
      "with --http: Host names clients may use besides the address listened on (a reverse proxy's public name); any other Host is refused (403)",
    kind: "list",
  },
  allowedOrigins: {
    flags: "--allowed-origins <names>",
    description:
      "with --http: host names of the browser Origins allowed; a request with any other Origin is refused (403)",
    kind: "list",
  },
  maxSessions: {
    flags: "--max-sessions <n>",
    description:
      "with --http: 2025-era client sessions kept at once (default 64); a new one past it is told 503",
    kind: "count",
  },
  sessionIdle: {
    flags: "--session-idle <duration>",
    description: "with --http: a session unused this long is closed (default 10m)",
    kind: "duration",
  },
  tokenRate: {
    flags: "--token-rate <n/min>",
    description:
      "with --http: requests a minute each token may make (default 120/min), past it 429; --rate is the limit toward the API",
    kind: "rate",
  },
  stopGrace: {
    flags: "--stop-grace <duration>",
    description:
      "with --http: on SIGTERM, how long calls in flight may take to finish (default 10s); then they answer 'stopped'",
    kind: "duration",
  },
});
