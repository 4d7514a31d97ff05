import assert from "node:assert/strict";
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

/** Parses in a loop on a keep-alive connection until the server refuses to connect. */
async function client(url: string, seen: Seen): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/v1/verify/parse`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ line: "123 Main St Springfield IL 62701" }),
      });
      await response.arrayBuffer();
      note(seen.statuses as Map<string | number, number>, response.status);
    } catch (error) {
      const code = String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
      note(seen.failures as Map<string | number, number>, code);
      if (code === "ECONNREFUSED") return;
    }
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
  assert.equal(service.child.exitCode, 0, service.stderr());
  assert.ok(answeredBefore > 0, "no load before the signal");
  for (const status of seen.statuses.keys()) assert.ok(status === 200 || status === 503, `status ${status}`);
  assert.deepEqual([...seen.failures.keys()], ["ECONNREFUSED"], JSON.stringify([...seen.failures]));
});
