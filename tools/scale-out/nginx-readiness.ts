import { parseArgs } from "node:util";
import { reloadNginx, writeNginxConfig } from "./nginx.js";
import { watchReadiness } from "./readiness.js";

/**
 * Keeps the nginx running on PREFIX (started with `-p PREFIX -c PREFIX/nginx.conf`) sending
 * traffic only to ready replicas: asks each replica's GET /readyz every --every ms, and when the
 * set of unready ones changes, rewrites PREFIX/nginx.conf with them `down` and reloads nginx.
 *   node dist/tools/scale-out/nginx-readiness.js --listen 8080 --prefix /var/lib/situs-nginx \
 *        [--every 2000] [--timeout 1500] 127.0.0.1:3001 127.0.0.1:3002
 */
const { values, positionals: upstreams } = parseArgs({
  options: {
    listen: { type: "string", default: "8080" },
    prefix: { type: "string", default: "/var/lib/situs-nginx" },
    every: { type: "string", default: "2000" },
    timeout: { type: "string", default: "1500" },
  },
  allowPositionals: true,
});
const { listen, prefix } = values;
const everyMs = Number(values.every);
const timeoutMs = Number(values.timeout);
if (upstreams.length === 0 || !(everyMs >= 100) || !(timeoutMs >= 100)) {
  process.stderr.write(
    "usage: nginx-readiness [--listen PORT] [--prefix DIR] [--every MS>=100] [--timeout MS>=100] HOST:PORT...\n",
  );
  process.exit(2);
}
const watch = watchReadiness({
  upstreams,
  everyMs,
  timeoutMs,
  apply: async (down) => {
    writeNginxConfig({ listen, prefix, upstreams, down });
    await reloadNginx(prefix);
  },
  report: (message) => process.stderr.write(`nginx-readiness: ${message}\n`),
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => watch.stop());
