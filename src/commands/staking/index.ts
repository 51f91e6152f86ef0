import { ENDPOINTS } from "../../contract/endpoints.js";
import { UsageError } from "../../errors.js";
import { flagTable } from "../../flags/table.js";
import { BASE_ONLY_CHAIN, BY_TICKER_OR_ADDRESS_FLAGS, LIST_ANSWER_FLAGS } from "../../flags/token-lists.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";

export const STAKING_FLAGS = flagTable({
  chain: BASE_ONLY_CHAIN,
  ...BY_TICKER_OR_ADDRESS_FLAGS,
  view: {
    flags: "--view <view>",
    description: "column set: details (TVL, net staked, retention, stakers, holders) or trends (last 24h)",
    kind: "choice",
    choices: ENDPOINTS.staking.views,
    what: "view",
    cliOnly: true,
  },
  activities: {
    flags: "--activities",
    description:
      "one row per recent stake or unstake (time, action, amount, user type: regular, smart_money_user, dev); --where, --sort and --fields read the activity's fields",
    kind: "switch",
    cliOnly: true,
  },
  ...LIST_ANSWER_FLAGS,
});

const definition = () => import("./definition.js").then(({ STAKING }) => STAKING);

export default defineCommand({
  name: "staking",
  description:
    "staking per token on Base: TVL, net staked, retention, stakers, 24h trends and recent activity",
  flags: STAKING_FLAGS,
  examples: [
    "tokenintel staking --sandbox --tickers VIRTUAL,AIXBT",
    "tokenintel staking --sandbox --tickers VIRTUAL --view trends",
    "tokenintel staking --sandbox --tickers VIRTUAL,AIXBT --activities --where user_type=smart_money_user",
    "tokenintel staking --sandbox --tickers VIRTUAL --json | jq '.[].staking_details.net_staked'",
  ],
  notes: `Names the tokens with --tickers or --addresses (at least one; 30 a request, a longer list is
split and merged in the order given). TVL is read from tvl (the older path) or tvl_usd (the newer);
net_staked and net_staked_usd are the service's own formatted strings ("3.4M"), kept as written in
JSON and the table. Base only: the endpoint takes no chain (-c base is taken, another chain refused).`,
  async run(ctx, opts) {
    if (opts.activities && opts.view !== undefined)
      throw new UsageError("--activities has no --view: leave one out");
    const activities = () => import("./definition.js").then(({ STAKING_ACTIVITIES }) => STAKING_ACTIVITIES);
    await runsDefinition(opts.activities ? activities : definition)(ctx, opts);
  },
  definition,
});
