import { ENDPOINTS } from "../../contract/endpoints.js";
import { strictFlag, TICKERS } from "../../flags/data.js";
import { flagTable } from "../../flags/table.js";
import { LIST_ANSWER_FLAGS } from "../../flags/token-lists.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";
import { fanOutFlag } from "../data/fan-out.js";
import { FUNDING_HOURS, UNKNOWN_INTERVAL } from "./funding.js";

const entry = ENDPOINTS.perp;

const flags = flagTable({
  tickers: { ...TICKERS, description: `${TICKERS.description}; one request each` },
  dex: fanOutFlag(entry.fanOut),
  strict: strictFlag("--tickers (on a venue asked)"),
  view: {
    flags: "--view <view>",
    description:
      "column set: board (mark, funding, open interest, book) or technicals (RSI, ATR, ADX, OBV, swing, MACD)",
    kind: "choice",
    choices: entry.views,
    what: "view",
    cliOnly: true,
  },
  ...LIST_ANSWER_FLAGS,
});

const definition = () => import("./definition.js").then(({ PERP }) => PERP);

export default defineCommand({
  name: "perp",
  description:
    "perpetual futures per ticker and venue: mark, funding, open interest, spread, depth, technicals",
  flags,
  examples: [
    "tokenintel perp --sandbox --tickers ETH,BTC",
    "tokenintel perp --sandbox --tickers ETH --dex all --sort funding_rate.current_value:desc",
    "tokenintel perp --sandbox --tickers SOL,HYPE --dex hyperliquid,lighter,extended --view technicals",
    "tokenintel perp --sandbox --tickers ETH --dex all --json | jq -c '.[] | {dex, funding: .funding_rate.current_value}'",
  ],
  notes: `One request per ticker and venue (--dex: ${entry.fanOut.default} by default, a list, or all ${entry.fanOut.values.length}), concurrent, the rows grouped by ticker in the order given and the venues in theirs; each record carries the venue it came from as dex, the one field tokenintel adds. With --pay the requests (tickers × venues, ${entry.price} USDC each on the live service) are counted before the first: a run they would take over --max-spend is refused before anything is signed.

Paths: under --api-paths older (the default) ${entry.fanOut.default} is asked at ${entry.path} and the other venues at ${entry.newerPath}, the one path the older docs give them; under newer every venue is asked at ${entry.newerPath}.

FUNDING is the venue's rate per funding interval, as sent (a fraction, shown in percent); APR is that rate times the intervals in a year where the venue's docs state one interval: hourly on ${[...FUNDING_HOURS.keys()].join(", ")}. ${UNKNOWN_INTERVAL.join(", ")} set it per market or do not state it: their APR reads n/a, their rate is per interval. IMBAL is (bid − ask) / (bid + ask) of the depth within 0.25 % of mid; SPREAD the spread in percent of the mark.

JSON and NDJSON carry every field the service sent, digit for digit, known or not.`,
  definition,
  run: runsDefinition(definition),
});
