import { ENDPOINTS } from "../../contract/endpoints.js";

// How often each venue settles funding: the service sends a rate per funding interval, and a rate
// is annualised only where the venue's own docs give its interval (docs/api-notes.md, "Funding
// intervals"). A venue whose interval is set per market, or that its docs do not state, has none
// here: its rate is shown as sent, per interval, and not annualised.

type Venue = (typeof ENDPOINTS.perp.fanOut.values)[number];

/** Hours between funding settlements, where the venue's docs state one interval for every market. */
export const FUNDING_HOURS: ReadonlyMap<string, number> = new Map<Venue, number>([
  ["hyperliquid", 1],
  ["pacifica", 1],
  ["lighter", 1],
  ["extended", 1],
]);

/** The venues whose funding interval is not known: their rate is not annualised. */
export const UNKNOWN_INTERVAL: readonly string[] = ENDPOINTS.perp.fanOut.values.filter(
  (v) => !FUNDING_HOURS.has(v),
);

/** Funding intervals in a year of 365 days, for a venue; undefined when its interval is not known. */
export function intervalsPerYear(venue: unknown): bigint | undefined {
  if (typeof venue !== "string") return undefined;
  const hours = FUNDING_HOURS.get(venue);
  return hours === undefined ? undefined : BigInt((365 * 24) / hours);
}
