import { readFileSync } from "node:fs";
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

export function flag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

/** The machine's CPU time so far (Linux /proc/stat, in clock ticks): all of it, and the stolen. */
export interface CpuTimes {
  steal: number;
  total: number;
}

export function cpuTimes(): CpuTimes | undefined {
  try {
    const fields = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { steal: fields[7] ?? 0, total: fields.slice(0, 8).reduce((sum, ticks) => sum + ticks, 0) };
  } catch {
    return undefined;
  }
}

/**
 * The share of the machine's CPU time since `since` that its hypervisor took for other guests
 * ("steal"): on a shared virtual machine, runs taken while the host was busy are slower for
 * reasons outside the service. Undefined without /proc.
 */
export function stolenShare(since: CpuTimes | undefined): number | undefined {
  const now = cpuTimes();
  if (since === undefined || now === undefined || now.total === since.total) return undefined;
  return (now.steal - since.steal) / (now.total - since.total);
}
