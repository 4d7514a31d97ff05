import { randomBytes } from "node:crypto";
import autocannon from "autocannon";

/**
 * The load of bench-key-flood.ts that runs beside replica A, in a process of its own (so the
 * bench can keep it on A's core): `flood` sends a new unknown key per request, `neighbour` the
 * same rate of GET /healthz. Prints autocannon's figures as one JSON line.
 *   node dist/tools/bench/key-flood-client.js flood|neighbour URL RATE SECONDS CONNECTIONS
 */
const [mode, url, rate, seconds, connections] = process.argv.slice(2);
const common = {
  connections: Number(connections),
  duration: Number(seconds),
  overallRate: Number(rate),
};
const result =
  mode === "flood"
    ? await autocannon({
        ...common,
        url: `${url}/v1/verify/parse`,
        method: "POST",
        body: JSON.stringify({ line: "1 Main St" }),
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              headers: {
                "content-type": "application/json",
                authorization: `Bearer sk_guess_${randomBytes(16).toString("hex")}`,
              },
            }),
          },
        ],
      })
    : await autocannon({ ...common, url: `${url}/healthz` });
console.log(
  JSON.stringify({
    rps: result.requests.average,
    statuses: { "2xx": result["2xx"], "4xx": result["4xx"], "5xx": result["5xx"] },
  }),
);
