import { settingFlags } from "./settings-table.js";
import { flagTable } from "./table.js";

/** How records are printed: every command that prints records takes these. */
export const OUTPUT_FLAGS = flagTable({
  wide: { flags: "--wide", description: "a table with more columns", kind: "switch", cliOnly: true },
  columns: {
    flags: "--columns <paths>",
    description: "the table's columns by dot path (like --fields, which applies to every format)",
    kind: "list",
    cliOnly: true,
  },
  // --output: the settings of the output group.
  ...settingFlags("output"),
  json: {
    flags: "--json",
    description: "shorthand for --output json (the default when stdout is not a terminal)",
    kind: "switch",
    cliOnly: true,
  },
  ndjson: {
    flags: "--ndjson",
    description: "shorthand for --output ndjson: one record per line, as pages arrive",
    kind: "switch",
    cliOnly: true,
  },
  fields: {
    flags: "--fields [paths]",
    description:
      "keep only these comma-separated dot paths, in every format; alone, lists the command's paths",
    kind: "optionalList",
  },
  crlf: {
    flags: "--crlf",
    description: "end CSV lines in CRLF, for spreadsheets (default LF, for awk, cut and grep)",
    kind: "switch",
    cliOnly: true,
  },
});
