import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { childPids } from "./bench-support.js";

/** A server started as a child process, with its URL once it listens. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  rssBytes(): number;
  stop(): Promise<void>;
}

export function startServer(
  script: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
  args: readonly string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stopping = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start: ${output.slice(-500)}`)),
      timeoutMs,
    );
    let ready = false;
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (ready) return;
      const match = /listening at (https?:\/\/[\d.]+:\d+)/.exec(output);
      if (!match) return;
      ready = true;
      clearTimeout(timer);
      // A server that dies under load would otherwise show only as failed requests.
      child.once("exit", (code, signal) => {
        if (!stopping)
          process.stderr.write(
            `${script} exited (${code ?? signal}) while serving:\n${output.slice(-4000)}\n`,
          );
      });
      resolve({
        child,
        url: match[1]!,
        rssBytes: () => processRss(child.pid ?? 0),
        stop: () =>
          new Promise((done) => {
            stopping = true;
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${script} exited ${code}: ${output.slice(-500)}`)));
  });
}

/** Resident set size of a process and its children (cluster workers), from /proc. */
export function processRss(pid: number): number {
  const pids = [pid, ...childPids(pid)];
  return pids.reduce((sum, one) => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${one}/status`, "utf8"));
      return sum + Number(match?.[1] ?? 0) * 1024;
    } catch {
      return sum;
    }
  }, 0);
}
