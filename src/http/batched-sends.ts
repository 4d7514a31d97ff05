/**
 * Answers leave together at the end of the event loop's turn (`onSend`, registered last).
 * Every answer written to a socket wakes its client; when the client sleeps, as it does once
 * the server is the busier side, that wake-up is paid inside the write, and on virtual machines
 * it can cost more than a parse. Answers released together wake each client once per turn: on
 * the two-core benchmark machine the parse server with accounts off answers about twice the
 * requests per second (`npm run bench:accounts-http`, docs/accounts.md "Measured"). Billed
 * answers are released together already, when their usage rows become durable; the wait adds
 * one turn.
 */
let turnEnd: Promise<void> | null = null;

function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise((resolve) =>
    setImmediate(() => {
      turnEnd = null;
      resolve();
    }),
  );
  return turnEnd;
}

export async function batchedSend(_request: unknown, _reply: unknown, payload: unknown): Promise<unknown> {
  await endOfTurn();
  return payload;
}
