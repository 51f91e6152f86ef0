import { Chalk } from "chalk";
import Table from "cli-table3";
import type { IO } from "../io.js";
import { type Column, formatCell } from "./columns.js";

/** A table for people: short headers, numbers right-aligned, changes coloured when colour is on. */
export function renderTable(records: unknown[], columns: Column[], io: IO): string {
  const chalk = new Chalk({ level: io.color ? 1 : 0 });
  const table = new Table({
    head: columns.map((c) => chalk.bold(c.header)),
    style: { head: [], border: [], compact: true, "padding-left": 1, "padding-right": 1 },
    colAligns: columns.map((c) => c.align ?? "left"),
    chars: {
      top: "",
      "top-mid": "",
      "top-left": "",
      "top-right": "",
      bottom: "",
      "bottom-mid": "",
      "bottom-left": "",
      "bottom-right": "",
      left: "",
      "left-mid": "",
      mid: "",
      "mid-mid": "",
      right: "",
      "right-mid": "",
      middle: " ",
    },
  });
  for (const record of records) {
    table.push(
      columns.map((c) => {
        const text = formatCell(record, c);
        if (c.format !== "percent" || !io.color) return text;
        if (text.startsWith("+")) return chalk.green(text);
        if (text.startsWith("-") && text !== "-") return chalk.red(text);
        return text;
      }),
    );
  }
  return `${table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")}\n`;
}
