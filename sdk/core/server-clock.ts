/**
 * The service's clock as seen through the `Date` headers of its answers.
 *
 * A `Date` header has one-second resolution (the server rounds down) and is written
 * somewhere between the moment the request left and the moment the answer arrived.
 * So one answer only says that, at local time `t`, the server's clock read between
 * `t + (date - received)` and `t + (date + 1 s - sent)`. Every answer narrows that
 * interval of offsets; none is ever made narrower than the evidence allows. Used to
 * tell whether an object's `createTime` (the service's clock) came before a local
 * moment, without trusting this machine's clock to agree with the service's.
 */
import type { ServerDateObservation } from "./transport";

/** The interval of possible server times at one local moment, in epoch milliseconds. */
export interface ServerTimeBounds {
  earliest: number;
  latest: number;
}

export class ServerClock {
  /** Bounds of `server time - local time`, or undefined before any answer. */
  #lowOffset: number | undefined;
  #highOffset: number | undefined;

  /** Records one answer's `Date` header. */
  observe({ serverDateMs, sentAtMs, receivedAtMs }: ServerDateObservation): void {
    const low = serverDateMs - receivedAtMs;
    const high = serverDateMs + 1000 - sentAtMs;
    if (this.#lowOffset === undefined || this.#highOffset === undefined) {
      this.#lowOffset = low;
      this.#highOffset = high;
      return;
    }
    const narrowedLow = Math.max(this.#lowOffset, low);
    const narrowedHigh = Math.min(this.#highOffset, high);
    if (narrowedLow <= narrowedHigh) {
      this.#lowOffset = narrowedLow;
      this.#highOffset = narrowedHigh;
    } else {
      // The evidence contradicts itself: one of the clocks was set. Trust the latest.
      this.#lowOffset = low;
      this.#highOffset = high;
    }
  }

  /** Possible server times at local wall time `localMs`; undefined before any answer. */
  at(localMs: number): ServerTimeBounds | undefined {
    if (this.#lowOffset === undefined || this.#highOffset === undefined) return undefined;
    return { earliest: localMs + this.#lowOffset, latest: localMs + this.#highOffset };
  }
}
