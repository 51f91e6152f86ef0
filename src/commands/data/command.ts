import type { RunContext } from "../../context.js";
import type { DataCommandDefinition } from "./definition.js";
import type { DataOptions } from "./flags.js";

/**
 * The one lazy loader of the data commands: a run loads the engine and the command's definition
 * (its views, columns and rows) when it starts, not when the program lists the command.
 */
export function runsDefinition<O extends DataOptions>(loadDefinition: () => Promise<DataCommandDefinition>) {
  return async (ctx: RunContext, opts: O): Promise<void> => {
    const [{ runDataCommand }, definition] = await Promise.all([import("./run.js"), loadDefinition()]);
    await runDataCommand(ctx, definition, opts);
  };
}
