import type { PgliteDatabase } from "../../db/pglite-database.js";
import type { JournalFormat } from "./usage-journal.js";
import { billJournal, billJsonJournal } from "./usage-journal.js";

/**
 * The ledger's work on the embedded database's own thread (db/pglite-worker.ts runs this module's
 * functions for PgliteThreadDatabase.runJob): billing a whole journal there costs the thread that
 * answers requests nothing.
 */
export const JOURNAL_JOBS = new URL(import.meta.url);

/**
 * Bills usage-journal bytes: a `copy` journal's tuples go into the database as they are; a `jsonl`
 * one, left by an older version, is parsed. Returns the bytes not read.
 */
export async function billJournalBytes(
  db: PgliteDatabase,
  bytes: Uint8Array,
  format: JournalFormat,
  batch: number,
): Promise<number> {
  if (format === "copy") {
    return billJournal(db, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), batch);
  }
  await billJsonJournal(db, new TextDecoder().decode(bytes), batch);
  return 0;
}
