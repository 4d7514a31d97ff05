import { spawn } from "node:child_process";
import { once } from "node:events";
import type { ChildProcess } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectPath } from "../../src/paths.js";

/** Where Debian's nginx package (nginx-light or nginx) puts the binary. */
export const NGINX_BINARY = process.env.NGINX_BINARY ?? "/usr/sbin/nginx";

export function nginxInstalled(): boolean {
  return existsSync(NGINX_BINARY);
}

export interface NginxSettings {
  /** What nginx listens on: a port, or address:port. */
  listen: string;
  /** The replicas, as host:port. */
  upstreams: readonly string[];
  /** Directory for nginx's pid, error log and temporary files. */
  prefix: string;
  /** Replicas taken out of rotation (`server … down`): those whose /readyz does not answer 200. */
  down?: ReadonlySet<string>;
}

/**
 * deploy/nginx/situs.conf.template with its placeholders filled in. A dead replica is skipped for
 * 5 s after one failure (max_fails=1, fail_timeout=5s); the template explains every setting. A
 * replica in `down` is out of rotation, unless every one is (then all stay, to be tried).
 */
export function renderNginxConfig(settings: NginxSettings): string {
  const template = readFileSync(projectPath("deploy", "nginx", "situs.conf.template"), "utf8");
  const down = settings.down ?? new Set<string>();
  const allDown = settings.upstreams.every((address) => down.has(address));
  const upstreams = settings.upstreams
    .map((address) =>
      !allDown && down.has(address)
        ? `    server ${address} down;`
        : `    server ${address} max_fails=1 fail_timeout=5s;`,
    )
    .join("\n");
  return template
    .replaceAll("${LISTEN}", settings.listen)
    .replaceAll("${UPSTREAMS}", upstreams)
    .replaceAll("${PREFIX}", settings.prefix);
}

export interface NginxProcess {
  child: ChildProcess;
  /** Writes the configuration for `settings` and has nginx load it (`nginx -s reload`). */
  reconfigure(settings: NginxSettings): Promise<void>;
  stop(): Promise<void>;
}

/** Writes `prefix/nginx.conf` for `settings`; returns its path. */
export function writeNginxConfig(settings: NginxSettings): string {
  const config = join(settings.prefix, "nginx.conf");
  writeFileSync(config, renderNginxConfig(settings));
  return config;
}

/** Has the nginx running on `prefix` reload its configuration; resolves once the signal is sent. */
export async function reloadNginx(prefix: string): Promise<void> {
  const config = join(prefix, "nginx.conf");
  const reload = spawn(NGINX_BINARY, ["-p", prefix, "-c", config, "-s", "reload"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  reload.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(reload, "exit")) as [number | null];
  if (code !== 0) throw new Error(`nginx -s reload failed: ${stderr}`);
}

/**
 * Runs nginx in the foreground with the rendered configuration written to `prefix/nginx.conf`.
 * Resolves once nginx answers on `port`.
 */
export async function startNginx(settings: NginxSettings, port: number): Promise<NginxProcess> {
  // nginx's workers run as an unprivileged user when started as root: they must reach the prefix.
  chmodSync(settings.prefix, 0o755);
  const config = writeNginxConfig(settings);
  const child = spawn(NGINX_BINARY, ["-p", settings.prefix, "-c", config, "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/nginx-probe`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    async reconfigure(next) {
      writeNginxConfig(next);
      await reloadNginx(next.prefix);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      await exited;
    },
  };
}
