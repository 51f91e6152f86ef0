import { ENDPOINTS } from "../../contract/endpoints.js";
import {
  dev,
  flagsColumn,
  holders,
  identity,
  metrics,
  rsi,
  social,
  updated,
} from "../../output/column-sets.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";
import type { MarketView } from "./views.js";

const m = metrics("token_metrics");
const h = holders("token_holder_insights");
const t = identity;

const VIEWS: Record<MarketView, TableLayout> = {
  overview: {
    columns: [
      t.symbol,
      t.name,
      m.price,
      m.h1,
      m.h24,
      m.d7,
      m.mcap,
      m.volume,
      m.liquidity,
      h.count,
      rsi,
      social.mind7,
    ],
    wide: [m.d30, m.fdv, m.ath, h.top10, flagsColumn("token_holder_insights"), updated],
  },
  holders: {
    columns: [t.symbol, h.count, h.change, h.top10, h.top50, h.top100, h.half, h.f100Bought, h.f100Hold],
    wide: [t.name, m.mcap, updated],
  },
  risk: {
    columns: [
      t.symbol,
      h.top10,
      dev.sold,
      dev.soldShare,
      dev.bundles,
      dev.bundleShare,
      dev.fresh,
      h.f100Hold,
      h.change,
      flagsColumn("token_holder_insights"),
    ],
    wide: [t.name, m.mcap, dev.holding, updated],
  },
  social: {
    columns: [
      t.symbol,
      social.mind3,
      social.mind3Change,
      social.mind7,
      social.mind7Change,
      social.impressions,
      social.engagement,
      social.followers,
      social.smart,
    ],
    wide: [t.name, m.h24, updated],
  },
  dev: {
    columns: [
      t.symbol,
      dev.wallet,
      dev.balance,
      dev.holding,
      dev.outTxs,
      dev.outAmount,
      dev.fresh,
      dev.sold,
      dev.soldShare,
      dev.bundles,
      dev.bundleShare,
    ],
    wide: [t.name, updated],
  },
};

export const MARKET: DataCommandDefinition = dataCommand(ENDPOINTS.market, {
  views: VIEWS,
  emptyMessage: "No tokens matched.",
});
