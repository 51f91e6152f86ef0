import { PaymentError } from "../errors.js";
import type { ApiResponse, RequestOptions } from "./client.js";
import type { Requester } from "./pager.js";

// Payments in the order a walk asks for its pages. Pages are asked several at a time and their
// 402s come back in any order; a cap that runs out must stop the walk at the first page it cannot
// pay, with nothing paid after it (those pages would be paid for and thrown away: the records are
// written in page order, and stop at the first missing page).

/** One request's place in the order of payments (RequestOptions.payTurn). */
export interface PayTurn {
  /** Resolves when every request asked before this one has paid, or ended; throws when one could not pay. */
  wait(): Promise<void>;
  /** This request has paid, or needs no payment. */
  done(): void;
  /** This request could not be paid (a cap): no request after it pays. */
  stop(reason: string): void;
}

class PayOrder {
  private next = 0;
  private readonly open = new Map<number, () => void>();
  private readonly waiting: Array<{ ticket: number; resolve: () => void; reject: (error: Error) => void }> =
    [];
  private stopped: string | undefined;

  take(): PayTurn {
    const ticket = this.next++;
    this.open.set(ticket, () => {});
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.open.delete(ticket);
      this.wake();
    };
    return {
      wait: () =>
        new Promise<void>((resolve, reject) => {
          this.waiting.push({ ticket, resolve, reject });
          this.wake();
        }),
      done: finish,
      stop: (reason) => {
        this.stopped ??= reason;
        finish();
      },
    };
  }

  /** Lets through each waiting payment that no earlier open request stands before. */
  private wake(): void {
    for (const waiter of [...this.waiting]) {
      const before = [...this.open.keys()].some((ticket) => ticket < waiter.ticket);
      if (this.stopped !== undefined) {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.reject(new PaymentError(`refusing to pay: ${this.stopped}, so this one would be thrown away`));
      } else if (!before) {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

/**
 * A requester for one paid walk: each request takes its turn to pay in the order it was asked, and
 * one that tokenintel refuses to pay (a cap reached) stops the payments of those after it.
 */
export function inPaymentOrder(client: Requester): Requester {
  const order = new PayOrder();
  return {
    request: async (path: string, options: RequestOptions = {}): Promise<ApiResponse> => {
      const payTurn = order.take();
      try {
        return await client.request(path, { ...options, payTurn });
      } finally {
        // Answered, failed or paid: no longer before the others (a refusal to pay has stopped them).
        payTurn.done();
      }
    },
  };
}
