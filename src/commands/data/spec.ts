import type { Shape } from "../../api/fields.js";
import type { Endpoint } from "../../api/pager.js";
import type { SelectorKind } from "../../api/records.js";
import type { Column } from "../../output/columns.js";

// What a data command is, as data: its endpoint, the shape of its records, how it selects tokens
// and how its table looks. Each data command's spec.ts fills one in; the engine (run.ts) does the rest.

export interface TableLayout {
  columns: Column[];
  /** Added by --wide. */
  wide: Column[];
}

/** A command's table: named column sets (views), and for TA a grid built from what was sent. */
export interface TableSpec {
  views: Record<string, TableLayout>;
  defaultView: string;
  grid?: (records: unknown[]) => Column[];
}

export interface DataCommandSpec {
  name: string;
  endpoint: Endpoint;
  shape: Shape;
  table: TableSpec;
  /** Which list flags the command takes, and the query parameter each is sent as. */
  selectors: Partial<Record<SelectorKind, string>>;
  chainRequired: boolean;
  emptyMessage: string;
}
