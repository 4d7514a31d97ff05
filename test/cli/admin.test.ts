import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { run } from "../../src/cli/admin.js";
import { freshPostgres, serverSkip } from "../support/databases.js";

/** `bin/situs admin` end to end, against a fresh PostgreSQL database. */
describe("situs admin", { skip: await serverSkip("PostgreSQL") }, () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>;
  before(async () => (database = await freshPostgres()));
  after(async () => database?.drop());

  /** Runs the command in this process (the binary itself is exercised by service-replicas.test). */
  const admin = async (...args: string[]): Promise<string> => {
    process.env.DATABASE_URL = database.url;
    process.env.SITUS_PASSWORD = "a long portal password";
    let out = "";
    let err = "";
    const code = await run(args, { out: (text) => (out += text), err: (text) => (err += text) });
    if (code !== 0) throw new Error(`exit ${code}: ${err}`);
    return out.trim();
  };

  test("manages a team's status, credit, budget, keys and portal users, and shows usage", async () => {
    const teamId = await admin("team", "create", "Acme", "--credit", "10.5");
    assert.match(teamId, /^team_[0-9A-Z]{26}$/);
    assert.equal(await admin("team", "pause", teamId), "ok");
    assert.equal(await admin("credit", "add", teamId, "0.25"), "ok");
    assert.equal(await admin("budget", "set", teamId, "3"), "ok");
    assert.match(
      await admin("team", "list"),
      new RegExp(`${teamId}  paused  credit 10\\.750000  budget 3\\.000000`),
    );
    assert.equal(await admin("budget", "clear", teamId), "ok");
    assert.equal(await admin("team", "resume", teamId), "ok");
    const [keyId, secret] = (await admin("key", "create", teamId, "--name", "ci")).split("\n");
    assert.match(keyId!, /^key_/);
    assert.match(secret!, /^sk_[A-Za-z0-9_-]{32}$/);
    const listed = await admin("key", "list", teamId);
    assert.ok(
      listed.includes(`${secret!.slice(0, 11)}…`) && !listed.includes(secret!),
      "list shows the prefix only",
    );
    assert.equal(await admin("key", "revoke", keyId!), "ok");
    assert.match(await admin("key", "list", teamId), /revoked \d{4}-/);
    assert.match(await admin("user", "create", teamId, "ops@example.com"), /^usr_/);
    assert.match(
      await admin("usage", teamId),
      new RegExp(`${teamId}  active  credit 10\\.750000  budget none`),
    );
    await assert.rejects(admin("key", "revoke", "key_missing"), /no key key_missing/);
  });

  test("listings as JSON with --json; bad flag values named, never a database error", async () => {
    const teamId = await admin("team", "create", "Json", "--credit", "2");
    const teams = JSON.parse(await admin("team", "list", "--json")) as Array<{
      teamId: string;
      creditMicros: number;
    }>;
    assert.equal(teams.find((team) => team.teamId === teamId)?.creditMicros, 2_000_000);
    await admin("key", "create", teamId, "--name", "ci");
    const keys = JSON.parse(await admin("key", "list", teamId, "--json")) as Array<{ name: string }>;
    assert.deepEqual(
      keys.map((key) => key.name),
      ["ci"],
    );
    const usage = JSON.parse(await admin("usage", teamId, "--month", "2026-11", "--json")) as {
      month: string;
      byOperation: unknown[];
    };
    assert.equal(usage.month, "2026-11");
    assert.deepEqual(JSON.parse(await admin("logs", teamId, "--json")), []);
    await assert.rejects(
      admin("usage", teamId, "--month", "2026-13"),
      /--month must be a month written YYYY-MM/,
    );
    await assert.rejects(admin("usage", teamId, "--month", "November"), /--month must be a month/);
    await assert.rejects(
      admin("team", "list", "--month", "2026-11"),
      /exit 2: situs admin team list: Unknown option '--month'/,
    );
    await assert.rejects(admin("key", "create", teamId, "--nmae", "x"), /exit 2: .*Unknown option '--nmae'/);
    assert.equal(await admin("credit", "add", teamId, "-0.5"), "ok", "a negative amount is a value");
    assert.match(await admin("team", "list"), new RegExp(`${teamId}  active  credit 1\\.500000`));
    await assert.rejects(admin("logs", teamId, "--limit", "many"), /--limit must be a whole number from 1/);
    await assert.rejects(
      admin("logs", teamId, "--status", "42"),
      /--status must be a whole number from 100 to 599/,
    );
    await assert.rejects(admin("logs", teamId, "--since", "yesterday"), /--since must be an ISO date/);
  });
});
