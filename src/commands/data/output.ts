import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import type { OutputFormat } from "../../flags/formats.js";
import type { OutputOptions } from "./flags.js";

/** Picks the output format: --output, then --json/--ndjson, then config, then table on a terminal. */
export async function chooseFormat(ctx: RunContext, opts: OutputOptions): Promise<OutputFormat> {
  const chosen = [opts.output, opts.json && "json", opts.ndjson && "ndjson"].filter(
    Boolean,
  ) as OutputFormat[];
  if (new Set(chosen).size > 1)
    throw new UsageError(`conflicting output flags (${chosen.join(" and ")}); choose one`);
  if (chosen[0]) return chosen[0];
  return (await ctx.settings.get("output")) ?? (ctx.io.stdoutIsTTY ? "table" : "json");
}

/** --view, --wide and --columns shape a table: with another format, one warning that they do nothing. */
export function warnTableOnly(
  ctx: RunContext,
  format: OutputFormat,
  opts: { view?: string; wide?: boolean; columns?: readonly string[] },
): void {
  if (format === "table") return;
  const given = [
    opts.view !== undefined && "--view",
    opts.wide && "--wide",
    opts.columns !== undefined && "--columns",
  ].filter(Boolean);
  if (!given.length) return;
  ctx.io.warn(
    `${given.join(", ")} only shape${given.length === 1 ? "s" : ""} the table; not applied to -o ${format} (--fields picks what every format shows)`,
  );
}
