import { renderNginxConfig } from "./nginx.js";

/**
 * Prints the nginx configuration for replicas behind one balancer:
 *   node dist/tools/scale-out/render-nginx.js --listen 8080 --prefix /var/lib/situs-nginx \
 *        127.0.0.1:3001 127.0.0.1:3002 127.0.0.1:3003 > situs.conf
 */
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = args[at + 1] ?? fallback;
  args.splice(at, 2);
  return value;
};
const listen = option("listen", "8080");
const prefix = option("prefix", "/var/lib/situs-nginx");
if (args.length === 0) {
  process.stderr.write("usage: render-nginx [--listen PORT] [--prefix DIR] HOST:PORT...\n");
  process.exit(2);
}
process.stdout.write(renderNginxConfig({ listen, prefix, upstreams: args }));
