import type { Shape } from "../../api/fields.js";
import type { Endpoint } from "../../api/pager.js";
import type { SelectorKind } from "../../api/records.js";
import type { RecordKind } from "../../api/schemas.js";
import type { EndpointSpec } from "../../contract/endpoints.js";
import type { Column } from "../../output/columns.js";

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
  shape: Shape;
  table: TableSpec;
  /** Which list flags the command takes, and the query parameter each is sent as. */
  selectors: Partial<Record<SelectorKind, string>>;
  chainRequired: boolean;
  emptyMessage: string;
}

/** A command's endpoint, selectors and chain rule, as the endpoint table (contract/endpoints.ts) gives them. */
export function endpointOf(
  spec: EndpointSpec,
  kind: RecordKind,
): Pick<DataCommandDefinition, "endpoint" | "selectors" | "chainRequired"> {
  return {
    endpoint: { path: spec.path, kind, pageSize: spec.pageSize, keyOptional: spec.payable },
    selectors: spec.selectors,
    chainRequired: spec.chainRequired,
  };
}
