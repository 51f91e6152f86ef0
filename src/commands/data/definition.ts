import type { Endpoint } from "../../api/pager.js";
import type { SelectorKind } from "../../api/records.js";
import type { Chain } from "../../contract/api.js";
import type { EndpointSpec, FanOut, RecordKind } from "../../contract/endpoints.js";
import type { Shape } from "../../contract/shapes.js";
import type { Column } from "../../output/columns.js";
import type { OtherRecords } from "./fields-seen.js";

// What a data command is, as data: its endpoint, the shape of its records, how it selects tokens
// and how its table looks. Each data command's definition.ts fills one in; the engine (run.ts) does the rest.

/** Columns fixed in advance, or chosen from what the records carry (TA's grid of intervals). */
export type ColumnChoice = Column[] | ((records: unknown[]) => Column[]);

export interface TableLayout {
  columns: ColumnChoice;
  /** Added by --wide. */
  wide: ColumnChoice;
}

/** A command's table: named column sets (views). */
export interface TableSpec {
  views: Record<string, TableLayout>;
  defaultView: string;
}

export function chooseColumns(choice: ColumnChoice, records: unknown[]): Column[] {
  return typeof choice === "function" ? choice(records) : choice;
}

export interface DataCommandDefinition {
  name: string;
  endpoint: Endpoint;
  /** The endpoint's path in the newer generation of the docs, where it was renamed. */
  newerPath?: string;
  shape: Shape;
  table: TableSpec;
  /** Which list flags the command takes, and the query parameter each is sent as. */
  selectors: Partial<Record<SelectorKind, string>>;
  chainRequired: boolean;
  /** The one chain the endpoint serves (no `chain` is sent). */
  onlyOn?: Chain;
  /** The endpoint takes no chain: the default chain setting is not sent. */
  noChain?: boolean;
  /** Items of a list one request carries; a longer list is split over requests. */
  perRequest: number;
  /** A parameter asked value by value, each record stamped with its value (see FanOut). */
  fanOut?: FanOut;
  /** A request must name tokens (--tickers or --addresses). */
  selectorRequired?: boolean;
  emptyMessage: string;
  /** What a run reads the pages' records as, when not the records themselves (a list each holds, a row each). */
  rows?: (record: unknown) => unknown[];
  /** Options sent as query parameters as given: option key → parameter (trending's strategy). */
  params?: Record<string, string>;
  /** The records another spelling of the command shows: a --where or --sort on their fields is pointed there. */
  otherRecords?: OtherRecords;
}

/**
 * A data command as its registry entry (contract/endpoints.ts) gives it: the endpoint, the record
 * shape, selectors, chain rule and default view; the command adds its table's views and what an
 * empty answer says.
 */
export function dataCommand(
  entry: EndpointSpec,
  own: Pick<DataCommandDefinition, "emptyMessage" | "rows" | "params"> & {
    views: Record<string, TableLayout>;
    shape?: Shape;
  },
): DataCommandDefinition {
  const kind = entry.command as RecordKind;
  if (typeof entry.command !== "string" || !entry.shape)
    throw new Error(`${entry.path}: the registry gives it no data command`);
  return {
    name: entry.command,
    endpoint: {
      path: entry.path,
      kind,
      pageSize: entry.pageSize,
      paged: entry.pageSize > 0,
      keyOptional: entry.keyOptional,
      ...(entry.oneRecord ? { oneRecord: true } : {}),
    },
    newerPath: entry.newerPath,
    shape: own.shape ?? entry.shape,
    table: { views: own.views, defaultView: entry.views[0]! },
    selectors: entry.selectors,
    chainRequired: entry.chainRequired,
    onlyOn: entry.onlyOn,
    noChain: entry.noChain,
    perRequest: entry.maxSelectorItems,
    fanOut: entry.fanOut,
    selectorRequired: entry.selectorRequired,
    emptyMessage: own.emptyMessage,
    rows: own.rows,
    params: own.params,
  };
}
