import { ENDPOINTS } from "../../contract/endpoints.js";

/** ta's views: which indicator fills the grid's cells (--view), from its registry entry. */
export const TA_VIEWS = ENDPOINTS.ta.views;
export type TaView = (typeof TA_VIEWS)[number];
