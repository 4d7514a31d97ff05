import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { copyBinary, COPY_HEADER, COPY_TRAILER, copyTuples } from "../../src/db/copy-binary.js";
import type { CopyColumn } from "../../src/db/copy-binary.js";
import type { CopyValue } from "../../src/db/copy-binary.js";
import { openPgliteForTest, openPostgresForTest, serverSkip } from "../support/databases.js";
import type { TestDatabase } from "../support/databases.js";

/**
 * Rows copied in the binary format read back as the same values on both backends: every column
 * type, SQL NULL in each, text beyond ASCII, integers at their limits and negative, timestamps
 * before PostgreSQL's epoch (2000) and the Unix one.
 */
const COLUMNS: readonly CopyColumn[] = [
  { name: "id", type: "int4" },
  { name: "label", type: "text" },
  { name: "amount", type: "int8" },
  { name: "ratio", type: "float4" },
  { name: "at", type: "timestamptz" },
];

const ROWS: CopyValue[][] = [
  [1, "plain", 100, 0.125, Date.UTC(2026, 10, 21, 12, 30, 45, 123)],
  [2, "", 0, 0, Date.UTC(2000, 0, 1)],
  [3, "tab\there, line\nthere, back\\slash, é, 北京, 🏠", -1, -2.5, Date.UTC(1999, 11, 31, 23, 59, 59, 999)],
  [4, null, Number.MAX_SAFE_INTEGER, 3.4e38, Date.UTC(1969, 6, 20, 20, 17, 40)],
  [5, "negative", -Number.MAX_SAFE_INTEGER, null, Date.UTC(2100, 0, 1)],
  [2_147_483_647, "int4 limits", 2 ** 32, 1, null],
  [-2_147_483_648, "2^32 - 1", 2 ** 32 - 1, 1, 0],
];

function backendSuite(name: string, skip: false | string, open: () => Promise<TestDatabase>) {
  describe(`binary COPY on ${name}`, { skip }, () => {
    let database: TestDatabase;

    before(async () => {
      database = await open();
      await database.db.script(
        "CREATE TABLE copy_check (id int PRIMARY KEY, label text, amount bigint, ratio real, at timestamptz)",
      );
    });

    after(async () => database?.cleanup());

    test("reads back every value it wrote", async () => {
      await database.db.copyRows("copy_check", COLUMNS, ROWS);
      const rows = await database.db.query<{
        id: number;
        label: string | null;
        amount: string;
        ratio: number | null;
        at: string | null;
      }>(
        `SELECT id, label, amount::text AS amount, ratio, (extract(epoch FROM at) * 1000)::text AS at
           FROM copy_check ORDER BY id`,
      );
      const expected = [...ROWS].sort((a, b) => (a[0] as number) - (b[0] as number));
      assert.deepEqual(
        // A real prints its shortest decimal (3.4e+38), so both sides are compared as float4.
        rows.map((row) => [
          row.id,
          row.label,
          Number(row.amount),
          row.ratio === null ? null : Math.fround(row.ratio),
          row.at === null ? null : Number(row.at),
        ]),
        expected.map(([id, label, amount, ratio, at]) => [
          id,
          label,
          amount,
          ratio === null ? null : Math.fround(ratio as number),
          at,
        ]),
      );
    });

    test("a duplicate key fails the whole copy (code 23505), as text copies do", async () => {
      await assert.rejects(
        database.db.copyRows("copy_check", COLUMNS, [
          [100, "new", 1, 1, 0],
          [1, "again", 1, 1, 0],
        ]),
        { code: "23505" },
      );
      const [row] = await database.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM copy_check WHERE id = 100",
      );
      assert.equal(row?.n, 0);
    });
  });
}

backendSuite("PGlite (embedded)", false, openPgliteForTest);
backendSuite("PostgreSQL", await serverSkip("PostgreSQL"), () => openPostgresForTest());

test("values a column cannot hold are refused before anything is sent", () => {
  const price: CopyColumn[] = [{ name: "price", type: "int8" }];
  assert.throws(() => copyBinary(price, [[1.5]]), /price: 1.5 is not an integer/);
  assert.throws(() => copyBinary(price, [[2 ** 60]]), /is not an integer/);
  assert.throws(() => copyBinary(price, [["12"]]), /price \(int8\) takes a number/);
  assert.throws(() => copyBinary([{ name: "name", type: "text" }], [[12]]), /name \(text\) takes a string/);
  assert.throws(() => copyBinary([{ name: "n", type: "int4" }], [[2 ** 31]]), RangeError);
});

test("the format: signature, field counts, lengths (-1 for NULL), big-endian values, trailer", () => {
  const bytes = copyBinary(
    [
      { name: "a", type: "text" },
      { name: "b", type: "int8" },
      { name: "c", type: "timestamptz" },
    ],
    [["é", null, Date.UTC(2000, 0, 1, 0, 0, 1)]],
  );
  const expected = Buffer.concat([
    Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"),
    Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]),
    Buffer.from([0, 3]),
    Buffer.from([0, 0, 0, 2, 0xc3, 0xa9]),
    Buffer.from([0xff, 0xff, 0xff, 0xff]),
    Buffer.from([0, 0, 0, 8, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x40]), // 1,000,000 µs after 2000-01-01
    Buffer.from([0xff, 0xff]),
  ]);
  assert.deepEqual(bytes, expected);
});

test("the tuples alone are what copyBinary writes between its header and trailer", () => {
  assert.deepEqual(
    copyBinary(COLUMNS, ROWS),
    Buffer.concat([COPY_HEADER, copyTuples(COLUMNS, ROWS), COPY_TRAILER]),
  );
  assert.deepEqual(copyTuples(COLUMNS, []), Buffer.alloc(0));
});
