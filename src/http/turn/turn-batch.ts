import { keepTurnEndLast } from "../../runtime/turn-end.js";

/**
 * Work of one kind gathered over a turn of the event loop and run together at its end, item
 * after item, instead of each item between the HTTP work of the requests around it.
 *
 * A request's work (a parse, a match) reads tables that the server's other work (Node's HTTP
 * parser, Fastify's hooks, the usage journal, serialization) pushes out of the processor's
 * caches. Run back to back, each item can find the code and data its predecessor left warm,
 * and the HTTP work of the turn's requests likewise runs together before and after. Under
 * `npm run bench:http`'s parse load this took a parse inside the server from 54–66 µs to 44–55 µs,
 * and, side by side, the main thread's CPU a request down by 11% (lookup by ID) to 30% (fuzzy
 * lookup) (docs/performance.md).
 *
 * The batch runs in the check phase of the turn its items arrived in (setImmediate), and the end
 * of that turn (src/turn-end.ts) is kept behind it: the usage rows of its billed answers go to
 * their journal write, and its unbilled answers leave (batched-sends.ts), in that turn.
 */
export class TurnBatch {
  private pending: Array<() => void> = [];

  /** Runs `work` at the end of this turn, after the work queued before it; its result or throw. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.length === 0) {
        setImmediate(() => this.flush());
        keepTurnEndLast();
      }
      this.pending.push(() => {
        try {
          resolve(work());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    for (const job of batch) job();
  }
}
