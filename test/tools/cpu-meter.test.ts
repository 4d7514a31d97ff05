import assert from "node:assert/strict";
import { test } from "node:test";
import { cpuSpentBetween, parseCpuTimes, parseStatMicros } from "../../tools/bench/bench-support.js";

/**
 * The benchmarks' CPU meter on fixed readings: what it computes from /proc, not what a busy or
 * idle machine happens to show while the test runs.
 */
test("the machine's line of /proc/stat: busy, idle (with I/O wait) and stolen ticks", () => {
  const times = parseCpuTimes("cpu  100 5 50 800 20 3 2 10 0 0\ncpu0 50 2 25 400 10 1 1 5 0 0\n");
  assert.deepEqual(times, { idle: 820, steal: 10, total: 990 });
});

test("a process's CPU from /proc/PID/stat, whatever its name holds", () => {
  const stat = "4242 (node (worker) 1) S 1 4242 4242 0 -1 4194560 900 0 0 0 37 13 0 0 20 0 11 0";
  assert.equal(parseStatMicros(stat), (37 + 13) * 10_000);
});

test("the CPU spent meanwhile is divided among the requests", () => {
  const start = {
    machine: { idle: 1_000, steal: 10, total: 2_000 },
    server: { all: 500_000, main: 400_000 },
    generatorMicros: 1_000_000,
  };
  // 2 cores for 1 s: 200 ticks, of which 100 idle and 10 stolen; 90 ticks (900 ms) busy.
  const end = {
    machine: { idle: 1_100, steal: 20, total: 2_200 },
    server: { all: 800_000, main: 650_000 },
    generatorMicros: 1_200_000,
  };
  assert.deepEqual(cpuSpentBetween(start, end, 100, 2), {
    machine: 9_000,
    server: 3_000,
    serverMain: 2_500,
    generator: 2_000,
    coresBusy: 0.9,
    stolen: 0.05,
  });
  assert.equal(cpuSpentBetween(start, start, 100, 2), undefined, "no machine time: no figures");
});
