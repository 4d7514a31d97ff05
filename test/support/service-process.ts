import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectPath } from "../../src/paths.js";

/** A real service process (`node dist/src/main.js`) on a free port of 127.0.0.1. */
export interface ServiceProcess {
  port: number;
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait for a clean exit (pending usage and logs are written). */
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [projectPath("dist", "src", "main.js")], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      WORKERS: "1", // replicas are what these tests run; workers have their own test
      DATA_DIR: mkdtempSync(join(tmpdir(), "situs-service-")),
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // "close", not "exit": by then stderr is read to its end, so a failure can show all of it.
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000; // a first PGlite start on a busy CI machine takes seconds
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited at start: ${stderr}`);
    const up = await fetch(`${url}/health-probe`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`service did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    port,
    url,
    child,
    stderr: () => stderr,
    stop: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
  };
}
