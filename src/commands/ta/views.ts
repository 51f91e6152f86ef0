/** ta's views: which indicator fills the grid's cells (--view). */
export const TA_VIEWS = ["change", "rsi", "support", "resistance", "sma"] as const;
export type TaView = (typeof TA_VIEWS)[number];
