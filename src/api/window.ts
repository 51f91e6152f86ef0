/** inOrder's results, and a way to start the first requests before the first result is asked for. */
export interface InOrder<T> extends AsyncGenerator<T> {
  /** Starts what the window allows now (iterating starts them anyway). */
  fill(): void;
}

/**
 * The one scheduler of requests: runs task(i) for i from `from` to `to`, with up to `width()`
 * started ahead of the one being consumed, and yields their results in order. Memory stays bounded
 * by the window; a failure is seen only when its turn comes; results nobody asks for are dropped
 * (their promises are observed, so never an unhandled rejection). `width()` is asked again before
 * each new start, so a caller can narrow the window as it learns it needs fewer.
 */
export function inOrder<T>(
  task: (index: number) => Promise<T>,
  from: number,
  to: number,
  width: () => number,
): InOrder<T> {
  const pending: Array<Promise<T>> = [];
  let next = from;
  const fill = () => {
    while (next <= to && pending.length < width()) {
      const started = task(next++);
      started.catch(() => {});
      pending.push(started);
    }
  };
  async function* results(): AsyncGenerator<T> {
    fill();
    while (pending.length > 0) {
      yield await pending.shift()!;
      fill();
    }
  }
  return Object.assign(results(), { fill });
}
