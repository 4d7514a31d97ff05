import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { PipelinedCopy } from "../../src/db/pipelined-copy.js";
import { freshPostgres, serverSkip } from "../support/databases.js";

/**
 * COPY sent with its rows in one write, on a real server: rows arrive, a failed copy rejects,
 * and the connection answers the next statement either way (the rows sent ahead of a COPY the
 * server refused must be ignored by it, not read as commands).
 */
describe("pipelined COPY on PostgreSQL", { skip: await serverSkip("PostgreSQL") }, () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>;
  let client: pg.Client;

  before(async () => {
    database = await freshPostgres();
    client = new pg.Client({ connectionString: database.url, query_timeout: 5000 });
    await client.connect();
    await client.query("CREATE TABLE items (id int PRIMARY KEY, name text)");
  });

  after(async () => {
    await client?.end();
    await database?.drop();
  });

  async function copy(statement: string, data: string): Promise<number> {
    const submitted = new PipelinedCopy(statement, data);
    client.query(submitted);
    return submitted.done;
  }

  async function names(): Promise<string[]> {
    const result = await client.query<{ name: string }>("SELECT name FROM items ORDER BY id");
    return result.rows.map((row) => row.name);
  }

  test("copies the rows and reports their count", async () => {
    assert.equal(await copy("COPY items (id, name) FROM STDIN", "1\tone\n2\ttwo\n3\tthree é\n"), 3);
    assert.deepEqual(await names(), ["one", "two", "three é"]);
  });

  test("a duplicate key rejects the whole copy and the connection stays usable", async () => {
    await assert.rejects(copy("COPY items (id, name) FROM STDIN", "4\tfour\n1\tagain\n"), { code: "23505" });
    assert.deepEqual(await names(), ["one", "two", "three é"]);
  });

  test("a refused statement ignores the rows sent with it", async () => {
    // Rows that would be harmful if read as commands: the server must skip them.
    await assert.rejects(copy("COPY missing_table (id) FROM STDIN", "DROP TABLE items;\n"), {
      code: "42P01",
    });
    await assert.rejects(copy("COPY items (id, nope) FROM STDIN", "5\tfive\n"), { code: "42703" });
    assert.deepEqual(await names(), ["one", "two", "three é"]);
    assert.equal(await copy("COPY items (id, name) FROM STDIN", ""), 0);
    assert.equal(await copy("COPY items (id, name) FROM STDIN", "5\tfive\n"), 1);
    assert.deepEqual(await names(), ["one", "two", "three é", "five"]);
  });

  test("a malformed row rejects the copy inside a transaction, which then rolls back", async () => {
    await client.query("BEGIN");
    assert.equal(await copy("COPY items (id, name) FROM STDIN", "6\tsix\n"), 1);
    await assert.rejects(copy("COPY items (id, name) FROM STDIN", "x\tnot a number\n"), { code: "22P02" });
    await client.query("ROLLBACK");
    assert.deepEqual(await names(), ["one", "two", "three é", "five"]);
  });

  test("a copy that cannot finish is bounded by query_timeout", async () => {
    const holder = new pg.Client({ connectionString: database.url });
    const waiter = new pg.Client({ connectionString: database.url, query_timeout: 300 });
    await holder.connect();
    await waiter.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE items IN ACCESS EXCLUSIVE MODE");
      const submitted = new PipelinedCopy("COPY items (id, name) FROM STDIN", "7\tseven\n");
      waiter.query(submitted);
      await assert.rejects(submitted.done, /timeout/i);
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
      await waiter.end().catch(() => {});
    }
  });
});
