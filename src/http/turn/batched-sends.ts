import { atTurnEnd } from "../../runtime/turn-end.js";

/**
 * Answers leave together at the end of the event loop's turn (the metering hook, `onSend`, waits
 * for `endOfTurn` before it releases an unbilled answer).
 * Every answer written to a socket wakes its client; when the client sleeps, as it does once
 * the server is the busier side, that wake-up is paid inside the write, and on virtual machines
 * it can cost more than a parse. Answers released together wake each client once per turn: on
 * the two-core benchmark machine the parse server with accounts off answers about twice the
 * requests per second (`npm run bench:accounts-http`, docs/accounts.md "Measured"). Billed
 * answers are released together already, when their usage rows become durable, and do not wait.
 */
let turnEnd: Promise<void> | null = null;

/** Resolves at the end of the current turn of the event loop; every caller of one turn shares one. */
export function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise((resolve) =>
    atTurnEnd(() => {
      turnEnd = null;
      resolve();
    }),
  );
  return turnEnd;
}
