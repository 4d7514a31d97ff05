import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { pino } from "pino";
import { TurnLog } from "../src/runtime/turn-log.js";

/** A sink that keeps each write it is given. */
function recordingSink(): { writes: string[]; write(text: string): boolean } {
  const writes: string[] = [];
  return { writes, write: (text) => writes.push(text) > 0 };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("the lines of a turn leave together at its end, each turn's in a write of its own", async () => {
  const sink = recordingSink();
  const log = new TurnLog(sink);
  try {
    log.write("a\n");
    log.write("b\n");
    log.write("c\n");
    assert.deepEqual(sink.writes, [], "nothing is written while the turn runs");
    await nextTurn();
    assert.deepEqual(sink.writes, ["a\nb\nc\n"]);
    log.write("d\n");
    await nextTurn();
    assert.deepEqual(sink.writes, ["a\nb\nc\n", "d\n"]);
    await nextTurn();
    assert.equal(sink.writes.length, 2, "a turn without lines writes nothing");
  } finally {
    log.detach();
  }
});

test("a pino logger on it writes one JSON line per call, in order, and flush writes at once", async () => {
  const sink = recordingSink();
  const turnLog = new TurnLog(sink);
  try {
    const logger = pino({ level: "info", base: null, timestamp: false }, turnLog);
    logger.info({ n: 1 }, "first");
    logger.debug("below the level");
    logger.warn({ n: 2 }, "second");
    logger.flush();
    assert.equal(sink.writes.length, 1);
    const lines = sink.writes[0]!.split("\n");
    assert.equal(lines.pop(), "");
    assert.deepEqual(
      lines.map((line) => JSON.parse(line) as unknown),
      [
        { level: 30, n: 1, msg: "first" },
        { level: 40, n: 2, msg: "second" },
      ],
    );
    await nextTurn();
    assert.equal(sink.writes.length, 1, "flushed lines are not written twice");
  } finally {
    turnLog.detach();
  }
});

/** Runs `body` in a child process that logs through serviceLogger; its stdout and status. */
function runLogging(body: string): { stdout: string; status: number | null } {
  const module = new URL("../src/runtime/turn-log.js", import.meta.url).href;
  const script = `import { serviceLogger } from ${JSON.stringify(module)};
const log = serviceLogger("info");
${body}`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  return { stdout: result.stdout, status: result.status };
}

function messages(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

test("lines pending when the process exits are written: process.exit and an uncaught error", () => {
  const exited = runLogging(`log.info("one"); log.info("two"); process.exit(3);`);
  assert.equal(exited.status, 3);
  assert.deepEqual(messages(exited.stdout), ["one", "two"]);

  const crashed = runLogging(`log.info("before the crash"); throw new Error("boom");`);
  assert.equal(crashed.status, 1);
  assert.deepEqual(messages(crashed.stdout), ["before the crash"]);

  const ended = runLogging(`log.info("last words");`);
  assert.equal(ended.status, 0);
  assert.deepEqual(messages(ended.stdout), ["last words"]);
});
