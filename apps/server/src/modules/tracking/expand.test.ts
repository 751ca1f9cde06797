import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMigrations } from "../../platform/db/migrate.ts";
import { arbitraryMeta, arbitraryUpload, sampleRecord } from "../../test/tracking.ts";
import { decodeBatch, encodeBatch } from "./batch.ts";
import { COLUMN_NAMES, copyRows, sqliteExpandSql } from "./columns.ts";
import { ExpandInserter, expandedCopyText, expandUpload } from "./expand.ts";
import { EXTRA_FIELDS, partialExtraOf, toRow } from "./rows.ts";
import { RECORD_FIELDS } from "./validate.ts";

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const EXTRA_SET = new Set<string>(EXTRA_FIELDS);

let db: DatabaseSync;
let inserter: ExpandInserter;
const prepared: string[] = [];
beforeAll(async () => {
  db = new DatabaseSync(":memory:");
  for (const migration of await loadMigrations(MIGRATIONS)) {
    const sql = migration.up("sqlite");
    for (const statement of typeof sql === "string" ? [sql] : sql) db.exec(statement);
  }
  inserter = new ExpandInserter((sql) => {
    prepared.push(sql);
    return db.prepare(sql);
  });
});
afterAll(() => db.close());

/** The rows the events of a stored upload make, one by one, as toRow gives them (repeats skipped). */
function expectedRows(batch: string, uploadId: number) {
  const { records, meta, varying } = decodeBatch(batch);
  const own = varying.filter((field) => EXTRA_SET.has(field));
  const seen = new Set<string>();
  const rows: Record<string, unknown>[] = [];
  records.forEach((record, index) => {
    const row = toRow(record, meta, partialExtraOf(own)(record));
    const key = JSON.stringify([row.event_day, row.uid, row.page_unique_id, row.seq]);
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ ...row, upload_id: uploadId, upload_index: index });
  });
  return rows;
}

const stored = () =>
  db
    .prepare(
      `SELECT ${COLUMN_NAMES.join(", ")}, upload_id, upload_index FROM tracking_events ORDER BY upload_index`,
    )
    .all()
    .map((row) => ({ ...row }));

describe("expandUpload", () => {
  it("inserts, per event, the row toRow makes of it (shared columns bound once)", () => {
    let id = 0;
    fc.assert(
      fc.property(arbitraryUpload, arbitraryMeta, (events, meta) => {
        db.exec("DELETE FROM tracking_events");
        const batch = encodeBatch(events, meta, RECORD_FIELDS);
        const expanded = expandUpload(batch);
        expect(expanded.rows).toBe(events.length);
        inserter.insert(++id, expanded);
        expect(stored()).toEqual(expectedRows(batch, id));
      }),
      { numRuns: 300 },
    );
  });

  it("as COPY text with whole extras, is exactly the rows toRow makes (PostgreSQL)", () => {
    fc.assert(
      fc.property(arbitraryUpload, arbitraryMeta, (events, meta) => {
        const batch = encodeBatch(events, meta, RECORD_FIELDS);
        const { records, meta: decoded } = decodeBatch(batch);
        expect(expandedCopyText(expandUpload(batch, { wholeExtra: true }))).toBe(
          copyRows(records.map((record) => toRow(record, decoded))),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("as COPY text for an upload, ends each line with the upload id and the event's index", () => {
    const events = Array.from({ length: 3 }, (_, seq) => sampleRecord({ seq }));
    const expanded = expandUpload(
      encodeBatch(events, { receivedAt: 1, isBot: false, ip: "", pfb: "" }, RECORD_FIELDS),
    );
    const plain = expandedCopyText(expanded).split("\n");
    const pointed = expandedCopyText(expanded, 42).split("\n");
    expect(pointed).toEqual(plain.map((line, index) => (line === "" ? "" : `${line}\t42\t${index}`)));
  });

  it("binds a column shared by every event once", () => {
    const events = Array.from({ length: 50 }, (_, seq) =>
      sampleRecord({ seq, log_seq: seq, event_tracking_ext: { pos: seq } }),
    );
    const meta = { receivedAt: 1, isBot: false, ip: "203.0.113.9", pfb: "" };
    const expanded = expandUpload(encodeBatch(events, meta, RECORD_FIELDS));
    const varying = COLUMN_NAMES.filter((_, column) => !expanded.constant[column]);
    // seq and log_seq, duration (from the object event_tracking_ext), extra (it holds the ext)
    expect(varying).toEqual(["seq", "log_seq", "duration", "extra"]);
    expect(expanded.shared).toHaveLength(COLUMN_NAMES.length - 4);
    expect(expanded.varying).toHaveLength(4 * 50);
    expect(expanded.width).toBe(4);
  });

  it("refuses a stored upload whose differing fields are not field names", () => {
    const meta = { receivedAt: 1, isBot: false, ip: "", pfb: "" };
    const batch = encodeBatch([sampleRecord({ seq: 1 }), sampleRecord({ seq: 2 })], meta, RECORD_FIELDS);
    const tampered = batch.replace('"seq":[', '"seq\\"]; globalThis.hacked = 1; [\\"":[');
    expect(tampered).not.toBe(batch);
    expect(() => expandUpload(tampered)).toThrow(/unknown field/);
    expect((globalThis as { hacked?: number }).hacked).toBeUndefined();
  });

  it("prepares at most seven statements per set of shared columns, whatever the upload sizes", () => {
    const meta = { receivedAt: 1, isBot: false, ip: "", pfb: "" };
    const before = prepared.length;
    for (let size = 1; size <= 50; size++) {
      db.exec("DELETE FROM tracking_events");
      const events = Array.from({ length: size }, (_, seq) => sampleRecord({ seq, log_seq: seq }));
      const batch = encodeBatch(events, meta, RECORD_FIELDS);
      inserter.insert(size, expandUpload(batch));
      expect(stored()).toEqual(expectedRows(batch, size));
    }
    // a single event shares every column: its own set; the other 49 sizes share one set
    expect(prepared.length - before).toBeLessThanOrEqual(1 + 7);
  });
});

describe("ExpandInserter's statements", () => {
  it("keep the most recently used ones", () => {
    const sizes: number[] = [];
    const small = new ExpandInserter((sql) => {
      sizes.push(sql.split("), (").length);
      return db.prepare(sql);
    }, 2);
    const meta = { receivedAt: 1, isBot: false, ip: "", pfb: "" };
    const upload = (size: number) =>
      expandUpload(
        encodeBatch(
          Array.from({ length: size }, (_, seq) => sampleRecord({ seq, page_unique_id: `lru-${size}` })),
          meta,
          RECORD_FIELDS,
        ),
      );
    // 4 rows, 2 rows, 4 again (kept), 8 (drops 2, used least recently), 4 (still kept), 2 (anew)
    for (const size of [4, 2, 4, 8, 4, 2]) small.insert(100 + size, upload(size));
    expect(sizes).toEqual([4, 2, 8, 2]);
  });
});

describe("sqliteExpandSql", () => {
  it("names each parameter once, anonymously, in bind order", () => {
    const constant = COLUMN_NAMES.map((name) => name !== "seq");
    const sql = sqliteExpandSql(constant, 3);
    // upload id, index of the first row, the constant columns, then one per row
    expect(sql.split("?").length - 1).toBe(2 + (COLUMN_NAMES.length - 1) + 3);
    expect(sql).not.toMatch(/\?\d/);
    expect(sql).toContain("VALUES (?, 0), (?, 1), (?, 2)");
    expect(() => sqliteExpandSql(constant, 0)).toThrow(/shape/);
    expect(() => sqliteExpandSql([true], 1)).toThrow(/shape/);
  });
});
