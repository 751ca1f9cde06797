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
/** Statements kept (one per shape and row count); beyond, the cache starts over. */
const STATEMENT_LIMIT = 256;

/** An upload ready to insert: the statement's shape and its bind values. */
export interface ExpandedUpload {
  /** Per column of COLUMN_NAMES: one value for every event (bound once) or one per event. */
  constant: readonly boolean[];
  rows: number;
  /** `[uploadId, ...constant columns, ...varying columns of event 0, of event 1, ...]`. */
  values: Value[];
}

/** The bind values of the events of one stored upload (`batch`, as `encodeBatch` wrote it). */
export function expandUpload(uploadId: number, batch: string): ExpandedUpload {
  const { meta, count, shared, varying } = decodeSplit(batch);
  const fields = Object.entries(varying);
  const differ = new Set(fields.map(([field]) => field));
  // extra holds the fields of EXTRA_FIELDS that differ (in the order the upload lists them)
  const own = fields.map(([field]) => field).filter((field) => EXTRA_SET.has(field));
  const extraOf = partialExtraOf(own);
  const extraVaries = own.length > 0 || EXTRA_TAIL_FIELDS.some((field) => differ.has(field));

  // one record whose differing fields are overwritten per event: no copy per event
  const cursor: Record<string, unknown> = { ...shared };
  for (const [field, values] of fields) cursor[field] = values[0];
  const record = cursor as unknown as TrackingRecord;

  const constant: boolean[] = [];
  const values: Value[] = [uploadId];
  const perEvent: Derivation["value"][] = [];
  for (const name of PLAIN) {
    const { from, value } = DERIVED[name];
    const same = from.every((field) => !differ.has(field));
    constant.push(same);
    if (same) values.push(value(record, meta));
    else perEvent.push(value);
  }
  constant.push(!extraVaries);
  if (!extraVaries) values.push(extraOf(record));

  for (let i = 0; i < count; i++) {
    for (const [field, list] of fields) cursor[field] = list[i];
    for (const compute of perEvent) values.push(compute(record, meta));
    if (extraVaries) values.push(extraOf(record));
  }
  return { constant, rows: count, values };
}

/** Prepared `sqliteExpandSql` statements by shape, at most STATEMENT_LIMIT of them. */
export class ExpandStatements<S> {
  readonly #prepare: (sql: string) => S;
  readonly #cache = new Map<string, S>();

  constructor(prepare: (sql: string) => S) {
    this.#prepare = prepare;
  }

  for({ constant, rows }: ExpandedUpload): S {
    let key = `${rows}:`;
    for (const same of constant) key += same ? "1" : "0";
    let statement = this.#cache.get(key);
    if (statement === undefined) {
      statement = this.#prepare(sqliteExpandSql(constant, rows));
      if (this.#cache.size >= STATEMENT_LIMIT) this.#cache.clear();
      this.#cache.set(key, statement);
    }
    return statement;
  }
}
