import assert from "node:assert/strict";
import { Agent, request as httpRequest } from "node:http";
import { test } from "node:test";
import { startService } from "../support/service-process.js";

const KEY = "sk_test_shutdown0123456789abcdefghijklmn";

/** What one client saw: answers by status, and failures by their code. */
interface Seen {
  statuses: Map<number, number>;
  failures: Map<string, number>;
}

function note(map: Map<string | number, number>, key: string | number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * Parses in a loop on one keep-alive connection of its own until the server answers
 * `Connection: close`: the connection a client held when the signal came must carry every request
 * to an answer and close cleanly. (A client that opened new connections after the signal would
 * race the closing of the listening socket, where the kernel resets connections it has not handed
 * over yet: that is no request of the service's to answer.)
 */
async function client(url: string, seen: Seen): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ line: "123 Main St Springfield IL 62701" });
  try {
    for (;;) {
      const answer = await new Promise<{ status: number; close: boolean }>((resolve, reject) => {
        const request = httpRequest(
          {
            host: hostname,
            port,
            path: "/v1/verify/parse",
            method: "POST",
            agent,
            headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          },
          (response) => {
            response.resume();
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, close: response.headers.connection === "close" }),
            );
            response.on("error", reject);
          },
        );
        request.on("error", reject);
        request.end(body);
      });
      note(seen.statuses as Map<string | number, number>, answer.status);
      if (answer.close) return;
    }
  } catch (error) {
    note(seen.failures as Map<string | number, number>, String((error as { code?: string }).code ?? error));
  } finally {
    agent.destroy();
  }
}

test("SIGTERM under load: every request in flight is answered, no connection is reset", async () => {
  const service = await startService({ DEMO_API_KEY: KEY });
  const seen: Seen = { statuses: new Map(), failures: new Map() };
  const clients = Array.from({ length: 32 }, () => client(service.url, seen));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const answeredBefore = seen.statuses.get(200) ?? 0;
  const stopped = service.stop();
  await Promise.all(clients);
  await stopped;
  const { exitCode, signalCode } = service.child;
  assert.deepEqual(
    { exitCode, signalCode },
    { exitCode: 0, signalCode: null },
    `stderr: ${service.stderr()}`,
  );
  assert.ok(answeredBefore > 0, "no load before the signal");
  for (const status of seen.statuses.keys()) assert.ok(status === 200 || status === 503, `status ${status}`);
  assert.deepEqual([...seen.failures], [], "no request failed and no connection was reset");
});
