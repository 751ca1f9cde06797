import type { TrackingRecord } from "@meridian/contracts";
import { decodeSplit } from "./batch.ts";
import { COLUMN_NAMES, sqliteExpandSql } from "./columns.ts";
import { DERIVED, type Derivation, EXTRA_FIELDS, EXTRA_TAIL_FIELDS, partialExtraOf } from "./rows.ts";

/**
 * One accepted upload (batch.ts) as ONE insert into `tracking_events` (the SQLite
 * writer's expansion). No runtime imports beyond this folder's: it runs on the writer
 * thread.
 *
 * The events of an upload share most fields, so most columns have one value for all of
 * them: such a column is computed once and bound once, as a numbered parameter every
 * row of the statement names (`?2`), and only the columns computed from fields that
 * differ are computed and bound per event. Measured on the bench upload: 19 + 8 x 50
 * values bound instead of 28 x 50 (binding was ~40 % of the insert's CPU), and no
 * per-event record copies.
 *
 * Each row is what `toRow(record, meta, partialExtraOf(own)(record))` gives for its
 * event (`expand.test.ts`), plus `upload_id` and `upload_index`.
 */

type PlainColumn = Exclude<(typeof COLUMN_NAMES)[number], "extra">;
type Value = string | number;

const PLAIN = COLUMN_NAMES.filter((name): name is PlainColumn => name !== "extra");
const EXTRA_SET = new Set<string>(EXTRA_FIELDS);
/** Statements kept (one per set of shared columns and row count), the least recently used dropped beyond. */
const STATEMENT_LIMIT = 128;

/** An upload's events as bind values, the columns they share apart. */
export interface ExpandedUpload {
  /** Per column of COLUMN_NAMES: one value for every event (bound once) or one per event. */
  constant: readonly boolean[];
  rows: number;
  /** The constant columns' values, in column order. */
  shared: Value[];
  /** The other columns' values, event after event (`width` per event). */
  varying: Value[];
  width: number;
}

/** The bind values of the events of one stored upload (`batch`, as `encodeBatch` wrote it). */
export function expandUpload(batch: string): ExpandedUpload {
  const { meta, count, shared: sharedFields, varying: varyingFields } = decodeSplit(batch);
  const fields = Object.entries(varyingFields);
  const differ = new Set(fields.map(([field]) => field));
  // extra holds the fields of EXTRA_FIELDS that differ (in the order the upload lists them)
  const own = fields.map(([field]) => field).filter((field) => EXTRA_SET.has(field));
  const extraOf = partialExtraOf(own);
  const extraVaries = own.length > 0 || EXTRA_TAIL_FIELDS.some((field) => differ.has(field));

  // one record whose differing fields are overwritten per event: no copy per event
  const cursor: Record<string, unknown> = { ...sharedFields };
  for (const [field, values] of fields) cursor[field] = values[0];
  const record = cursor as unknown as TrackingRecord;

  const constant: boolean[] = [];
  const shared: Value[] = [];
  const perEvent: Derivation["value"][] = [];
  for (const name of PLAIN) {
    const { from, value } = DERIVED[name];
    const same = from.every((field) => !differ.has(field));
    constant.push(same);
    if (same) shared.push(value(record, meta));
    else perEvent.push(value);
  }
  constant.push(!extraVaries);
  if (!extraVaries) shared.push(extraOf(record));

  const varying: Value[] = [];
  for (let i = 0; i < count; i++) {
    for (const [field, list] of fields) cursor[field] = list[i];
    for (const compute of perEvent) varying.push(compute(record, meta));
    if (extraVaries) varying.push(extraOf(record));
  }
  return { constant, rows: count, shared, varying, width: perEvent.length + (extraVaries ? 1 : 0) };
}

/**
 * Rows per INSERT: an upload of 50 (the most an upload holds, TRACK_BATCH_MAX) is one
 * statement, any other count a sum of powers of two (37 = 32 + 4 + 1), so the statements
 * prepared stay few (seven row counts per set of shared columns) whatever sizes come.
 */
const CHUNKS = [50, 32, 16, 8, 4, 2, 1] as const;

/** Runs `sqliteExpandSql` statements, prepared once per shape (the STATEMENT_LIMIT most recently used kept). */
export class ExpandInserter {
  readonly #prepare: (sql: string) => { run(...values: Value[]): unknown };
  readonly #cache = new Map<string, { run(...values: Value[]): unknown }>();
  readonly #limit: number;

  constructor(prepare: (sql: string) => { run(...values: Value[]): unknown }, limit = STATEMENT_LIMIT) {
    this.#prepare = prepare;
    this.#limit = limit;
  }

  /** Inserts the events of upload `uploadId` (repeats skipped by the unique index). */
  insert(uploadId: number, { constant, rows, shared, varying, width }: ExpandedUpload): void {
    let mask = "";
    for (const same of constant) mask += same ? "1" : "0";
    let first = 0;
    for (const size of CHUNKS) {
      while (rows - first >= size) {
        // the statement's parameters in order: upload id, first index, shared, this chunk's rows
        const values: Value[] = [uploadId, first];
        for (const value of shared) values.push(value);
        const end = (first + size) * width;
        for (let i = first * width; i < end; i++) values.push(varying[i] as Value);
        this.#statement(mask, constant, size).run(...values);
        first += size;
      }
    }
  }

  #statement(mask: string, constant: readonly boolean[], rows: number) {
    const key = `${rows}:${mask}`;
    let statement = this.#cache.get(key);
    if (statement === undefined) {
      statement = this.#prepare(sqliteExpandSql(constant, rows));
      // least recently used out: the Map keeps keys in the order last set
      const oldest = this.#cache.keys().next();
      if (this.#cache.size >= this.#limit && !oldest.done) this.#cache.delete(oldest.value);
    } else {
      this.#cache.delete(key);
    }
    this.#cache.set(key, statement);
    return statement;
  }
}
