import type { TrackingRecord } from "@meridian/contracts";
import { decodeSplit } from "./batch.ts";
import { COLUMN_NAMES, copyField, sqliteExpandSql } from "./columns.ts";
import {
  DERIVED,
  type Derivation,
  EXTRA_FIELDS,
  EXTRA_TAIL_FIELDS,
  partialExtraOf,
  type UploadMeta,
} from "./rows.ts";

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
/** What a field name of the schema looks like (the generated loop names fields). */
const FIELD_NAME = /^[a-z][a-z0-9_]*$/;
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

/**
 * The bind values of the events of one stored upload (`batch`, as `encodeBatch` wrote it).
 * `wholeExtra`: each event's `extra` holds every field of EXTRA_FIELDS, as `toRow` writes
 * it (PostgreSQL, where no upload row keeps the shared ones); otherwise only those that
 * differ between the events.
 */
export function expandUpload(batch: string, options: { wholeExtra?: boolean } = {}): ExpandedUpload {
  const { meta, count, shared: sharedFields, varying: varyingFields } = decodeSplit(batch);
  const fields = Object.entries(varyingFields);
  const differ = new Set(fields.map(([field]) => field));
  // extra holds the fields of EXTRA_FIELDS that differ (in the order the upload lists them)
  const own = options.wholeExtra
    ? [...EXTRA_FIELDS]
    : fields.map(([field]) => field).filter((field) => EXTRA_SET.has(field));
  const extraOf = partialExtraOf(own);
  const extraVaries =
    (options.wholeExtra ? EXTRA_FIELDS.some((field) => differ.has(field)) : own.length > 0) ||
    EXTRA_TAIL_FIELDS.some((field) => differ.has(field));

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

  if (extraVaries) perEvent.push(extraOf);
  const loop = eventLoop(
    fields.map(([field]) => field),
    perEvent.length,
  );
  const varying: Value[] = [];
  const lists = fields.map(([, list]) => list);
  loop(cursor, lists, perEvent, meta, count, varying);
  return { constant, rows: count, shared, varying, width: perEvent.length };
}

const field = (value: string | number): string =>
  typeof value === "number" ? String(value) : copyField(value);

/**
 * The events of an upload as lines of COPY text, in COLUMN_NAMES order (the PostgreSQL
 * writer): the shared columns escaped once and repeated on every line. With `uploadId`,
 * each line ends with the upload id and the event's index in the upload (`upload_id`,
 * `upload_index`).
 */
export function expandedCopyText(
  { constant, rows, shared, varying, width }: ExpandedUpload,
  uploadId?: number,
): string {
  const sharedText = shared.map(field);
  const upload = uploadId === undefined ? undefined : `\t${uploadId}\t`;
  let text = "";
  for (let r = 0; r < rows; r++) {
    let s = 0;
    let v = r * width;
    for (let c = 0; c < constant.length; c++) {
      if (c > 0) text += "\t";
      text += constant[c] ? (sharedText[s++] as string) : field(varying[v++] as string | number);
    }
    text += upload === undefined ? "\n" : `${upload}${r}\n`;
  }
  return text;
}

type EventLoop = (
  cursor: Record<string, unknown>,
  lists: unknown[][],
  compute: Derivation["value"][],
  meta: UploadMeta,
  count: number,
  out: Value[],
) => void;

const eventLoops = new Map<string, EventLoop>();

/**
 * The per-event loop of `expandUpload` for one list of differing fields and `columns`
 * computed values, generated once per shape: it writes each field into the cursor by a
 * constant name and calls each column's function from a call site of its own, where a
 * plain loop over both lists made megamorphic keyed stores and calls (measured: 53 -> 37 us
 * for the bench upload). The field names come from a stored upload: each is written as a
 * JSON string literal, and one that does not look like a schema field is refused.
 */
function eventLoop(fields: readonly string[], columns: number): EventLoop {
  const key = `${columns}:${fields.join(",")}`;
  let loop = eventLoops.get(key);
  if (loop === undefined) {
    if (!fields.every((field) => FIELD_NAME.test(field))) throw new Error("tracking expand: unknown field");
    const body = [
      ...fields.map((field, f) => `cursor[${JSON.stringify(field)}] = lists[${f}][i];`),
      `out.push(${Array.from({ length: columns }, (_, c) => `c${c}(cursor, meta)`).join(", ")});`,
    ];
    loop = new Function(
      "cursor",
      "lists",
      "compute",
      "meta",
      "count",
      "out",
      `${Array.from({ length: columns }, (_, c) => `const c${c} = compute[${c}];`).join(" ")}
      for (let i = 0; i < count; i++) {
        ${body.join("\n")}
      }`,
    ) as EventLoop;
    if (eventLoops.size >= STATEMENT_LIMIT) eventLoops.clear();
    eventLoops.set(key, loop);
  }
  return loop;
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
