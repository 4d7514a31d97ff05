import { parseArgs } from "node:util";
import { renderNginxConfig } from "./nginx.js";

/**
 * Prints the nginx configuration for replicas behind one balancer:
 *   node dist/tools/scale-out/render-nginx.js --listen 8080 --prefix /var/lib/situs-nginx \
 *        127.0.0.1:3001 127.0.0.1:3002 127.0.0.1:3003 > situs.conf
 */
const { values, positionals } = parseArgs({
  options: {
    listen: { type: "string", default: "8080" },
    prefix: { type: "string", default: "/var/lib/situs-nginx" },
  },
  allowPositionals: true,
});
if (positionals.length === 0) {
  process.stderr.write("usage: render-nginx [--listen PORT] [--prefix DIR] HOST:PORT...\n");
  process.exit(2);
}
process.stdout.write(
  renderNginxConfig({ listen: values.listen, prefix: values.prefix, upstreams: positionals }),
);
