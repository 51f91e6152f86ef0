import { PageCeilingError } from "../../api/pager.js";
import type { RunContext } from "../../context.js";
import { CliError } from "../../errors.js";
import type { RecordWriter } from "../../output/writers.js";

// When a walk fails part way, are the records already fetched written before the run fails? Yes
// when the page ceiling stopped it (the walk is complete as far as it was allowed to go) and yes
// when any of them were paid for (--pay: nothing paid for is thrown away, so hitting --max-spend
// still leaves a valid document of what was bought). Otherwise no: a failed --json run of a free
// command prints nothing, so a script never mistakes half a listing for the whole one. Either way
// the error (which names what is missing) ends the run with its own exit code.

/** Whether the records fetched before `error` are written. */
export function keepsFetched(ctx: RunContext, error: CliError, fetched: number): boolean {
  if (error instanceof PageCeilingError) return true;
  return fetched > 0 && (ctx.payment?.paidRequests ?? 0) > 0;
}

/** Writes a stream of record batches; on a failure, what keepsFetched allows, then the error. */
export async function writeStream(
  ctx: RunContext,
  stream: AsyncIterable<unknown[]>,
  writer: RecordWriter,
  onSettled: () => void = () => {},
): Promise<void> {
  let fetched = 0;
  let failure: CliError | undefined;
  try {
    for await (const batch of stream) {
      fetched += batch.length;
      await writer.write(batch);
    }
  } catch (error) {
    if (!(error instanceof CliError) || !keepsFetched(ctx, error, fetched)) throw error;
    failure = error;
  } finally {
    onSettled();
  }
  await writer.end();
  if (failure) throw failure;
}
