/**
 * The end of a turn of the event loop, after the work gathered in it and what that work set off.
 *
 * Node runs immediates in its check phase, in the order they were queued, and drains the
 * microtask queue after each; an immediate queued while the check phase runs waits for the next
 * turn. The work of a turn's requests runs in an immediate (TurnBatch), and what it sets off
 * (a usage row to make durable, an answer to release) arrives during that check phase, too late
 * for an immediate of its own turn: a request then waited a whole further turn (the HTTP work of
 * every request read meanwhile) before its usage row was written. Under the parse load of `npm
 * run bench:accounts-http`, a one-off probe in the journal found a usage row waiting 0.3–0.4 ms
 * (median) for its write to begin, and under 0.06 ms once the write went at the end of the same
 * turn.
 *
 * So the end of a turn is one immediate kept behind every batch of work queued in the turn:
 * callbacks given to `atTurnEnd` run there, together.
 */
let callbacks: Array<() => void> = [];
let queued: NodeJS.Immediate | undefined;

/**
 * Runs `callback` at the end of this turn: after the batches of work queued in it, and after
 * the microtasks they set off. Called while the end of the turn runs, it waits for the next.
 */
export function atTurnEnd(callback: () => void): void {
  callbacks.push(callback);
  queued ??= setImmediate(endTurn);
}

/**
 * Keeps the end of the turn behind an immediate just queued (a batch of this turn's work), so
 * what the batch sets off still ends this turn.
 */
export function keepTurnEndLast(): void {
  if (queued !== undefined) clearImmediate(queued);
  queued = setImmediate(endTurn);
}

function endTurn(): void {
  queued = undefined;
  const due = callbacks;
  callbacks = [];
  // One callback's throw must not keep the others from running (their answers would wait
  // forever); the first is thrown on afterwards, as a throw in an immediate of its own would be.
  let failure: { error: unknown } | undefined;
  for (const callback of due) {
    try {
      callback();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
