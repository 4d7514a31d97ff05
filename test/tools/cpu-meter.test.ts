import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { test } from "node:test";
import { startCpuMeter } from "../../tools/bench/bench-support.js";

/** Keeps this thread busy until it has used `ms` milliseconds of CPU, however long that takes. */
function burn(ms: number): void {
  const start = process.cpuUsage();
  let spin = 0;
  for (;;) {
    spin++;
    const used = process.cpuUsage(start);
    if (used.user + used.system >= ms * 1000) break;
  }
  assert.ok(spin > 0);
}

test(
  "the benchmarks' CPU meter divides the CPU spent meanwhile among the requests",
  { skip: existsSync("/proc/stat") ? false : "needs Linux /proc" },
  () => {
    // This process plays both the server and the load generator: both see its 300 ms of CPU.
    const meter = startCpuMeter(process.pid);
    burn(300);
    const spent = meter.stop(10);
    assert.ok(spent, "figures on Linux");
    // 300 ms over 10 requests; Linux counts the process's time in ticks of 10 ms.
    assert.ok(spent.generator >= 30_000 && spent.generator <= 33_000, `generator ${spent.generator}`);
    assert.ok(spent.server >= 27_000 && spent.server <= 36_000, `server ${spent.server}`);
    // The process's time and its main thread's are read one after the other, so a tick can fall
    // between the two readings: the main thread may show one tick (1,000 µs a request) more.
    assert.ok(
      spent.serverMain >= 27_000 && spent.serverMain <= spent.server + 1_000,
      `main ${spent.serverMain}, server ${spent.server}`,
    );
    // The machine was busy at least while this process was.
    assert.ok(spent.machine >= 27_000, `machine ${spent.machine}`);
    assert.ok(spent.coresBusy > 0 && spent.coresBusy <= cpus().length + 0.01, `cores ${spent.coresBusy}`);
    assert.ok(spent.stolen >= 0 && spent.stolen < 1, `stolen ${spent.stolen}`);
  },
);
