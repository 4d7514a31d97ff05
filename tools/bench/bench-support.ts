import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { randomBytes } from "node:crypto";
import pg from "pg";

/** A throwaway PostgreSQL database for one benchmark run (dropped by `drop()`). */
export async function scratchDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `situs_bench_${randomBytes(4).toString("hex")}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await run(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => run(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  };
}

/** The middle value (the upper of the two middle ones for an even count); `values` is not reordered. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

export function flag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

/** The machine's CPU time so far (Linux /proc/stat, in clock ticks): all of it, idle, and stolen. */
export interface CpuTimes {
  /** Idle, or waiting for the disk with nothing else to run. */
  idle: number;
  steal: number;
  total: number;
}

/** Linux reports CPU time in clock ticks of 10 ms (USER_HZ is 100 on every platform Node runs on). */
const MICROS_PER_TICK = 10_000;

export function cpuTimes(): CpuTimes | undefined {
  try {
    return parseCpuTimes(readFileSync("/proc/stat", "utf8"));
  } catch {
    return undefined;
  }
}

/** The machine's line (`cpu  user nice system idle iowait irq softirq steal …`) of /proc/stat. */
export function parseCpuTimes(procStat: string): CpuTimes {
  const fields = procStat.split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  return {
    idle: (fields[3] ?? 0) + (fields[4] ?? 0),
    steal: fields[7] ?? 0,
    total: fields.slice(0, 8).reduce((sum, ticks) => sum + ticks, 0),
  };
}

/**
 * CPU time used so far by a process and its children (cluster workers), and by their main
 * threads apart, in µs: with `WORKERS` above 1 the requests are served by the workers' main
 * threads, not by the primary's.
 */
export function processCpuMicros(pid: number): { all: number; main: number } | undefined {
  try {
    const pids = [pid, ...childPids(pid)];
    const sum = (path: (one: number) => string) =>
      pids.reduce((total, one) => total + statMicros(path(one)), 0);
    return { all: sum((one) => `/proc/${one}/stat`), main: sum((one) => `/proc/${one}/task/${one}/stat`) };
  } catch {
    return undefined;
  }
}

/** utime + stime of a /proc stat file, in µs. */
function statMicros(path: string): number {
  return parseStatMicros(readFileSync(path, "utf8"));
}

/** utime + stime of a /proc/PID/stat text, in µs (the name in parentheses may hold spaces). */
export function parseStatMicros(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
}

/** The processes started by `pid` and theirs (cluster workers), from /proc. */
export function childPids(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return children === ""
      ? []
      : children
          .split(/\s+/)
          .map(Number)
          .flatMap((child) => [child, ...childPids(child)]);
  } catch {
    return [];
  }
}

/**
 * Where the machine's CPU went during a stretch of load, in µs a request: the whole machine
 * (busy, not idle or stolen), the server's processes and their main threads, the load generator
 * (this process, which runs autocannon), and how many cores were busy. With every core busy, a
 * server's req/s is the machine's cores divided by `machine`; with cores to spare, the server's
 * main thread is usually the limit (docs/performance.md "What limits the ratios").
 */
export interface CpuSpent {
  machine: number;
  server: number;
  serverMain: number;
  generator: number;
  coresBusy: number;
  /**
   * The share of the machine's CPU time that its hypervisor took for other guests ("steal"): on
   * a shared virtual machine, runs taken while the host was busy are slower for reasons outside
   * the service.
   */
  stolen: number;
}

/** What the meter reads at the start and at the end of a stretch of load. */
export interface CpuReadings {
  machine: CpuTimes;
  server: { all: number; main: number };
  /** The load generator's (this process's) user + system CPU, µs. */
  generatorMicros: number;
}

/** Starts measuring; `stop(requests)` gives the CPU spent since, undefined without /proc. */
export function startCpuMeter(serverPid: number): { stop(requests: number): CpuSpent | undefined } {
  const read = (): CpuReadings | undefined => {
    const machine = cpuTimes();
    const server = processCpuMicros(serverPid);
    const { user, system } = process.cpuUsage();
    return machine && server ? { machine, server, generatorMicros: user + system } : undefined;
  };
  const start = read();
  return {
    stop(requests) {
      const end = read();
      return start && end ? cpuSpentBetween(start, end, requests, cpus().length) : undefined;
    },
  };
}

/** The CPU spent between two readings, per request; undefined when no machine time passed. */
export function cpuSpentBetween(
  start: CpuReadings,
  end: CpuReadings,
  requests: number,
  cores: number,
): CpuSpent | undefined {
  const total = end.machine.total - start.machine.total;
  if (total <= 0) return undefined;
  const busy = total - (end.machine.idle - start.machine.idle) - (end.machine.steal - start.machine.steal);
  const perRequest = (micros: number) => micros / Math.max(1, requests);
  return {
    machine: perRequest(busy * MICROS_PER_TICK),
    server: perRequest(end.server.all - start.server.all),
    serverMain: perRequest(end.server.main - start.server.main),
    generator: perRequest(end.generatorMicros - start.generatorMicros),
    coresBusy: (busy / total) * cores,
    stolen: (end.machine.steal - start.machine.steal) / total,
  };
}
