/**
 * The stored columns of one event, in insert order, with their type: what the
 * aggregates read, plus `extra`, a compact JSON object of the event fields that no
 * column holds as sent (see `toRow`), so the whole event is still on record.
 */
export const COLUMNS = [
  ["event_day", "int"],
  ["ts", "bigint"],
  ["received_at", "bigint"],
  ["uid", "text"],
  ["page_unique_id", "text"],
  ["seq", "int"],
  ["log_seq", "int"],
  ["type", "int"],
  ["event_tracking_id", "text"],
  ["curr_page", "text"],
  ["page_status", "int"],
  ["path", "text"],
  ["ref_host", "text"],
  ["session_id", "text"],
  ["device_id", "text"],
  ["first_day", "int"],
  ["user_language", "int"],
  ["browser", "text"],
  ["sys", "int"],
  ["screen_width", "int"],
  ["screen_height", "int"],
  ["duration", "bigint"],
  ["is_bot", "int"],
  ["ip", "text"],
  ["pfb", "text"],
  ["extra", "json"],
] as const;

export type ColumnName = (typeof COLUMNS)[number][0];
export type StoredRow = Record<Exclude<ColumnName, "extra">, string | number> & { extra: string };

/** Column names in insert order. */
export const COLUMN_NAMES: readonly ColumnName[] = COLUMNS.map(([name]) => name);

const names = COLUMN_NAMES.join(", ");
if (COLUMN_NAMES.at(-1) !== "extra") throw new Error("tracking columns: extra must be the last column");
const conflict = "ON CONFLICT (event_day, uid, page_unique_id, seq) DO NOTHING";

/**
 * SQLite's INSERT of `rows` rows: one `(?, ...)` per row, so a chunk of rows is one
 * statement step (SQLite allows 32766 bound parameters: 1260 rows of these columns).
 * Repeats (same day, uid, page view and seq) are skipped by the unique index.
 */
export function sqliteInsertSql(rows: number): string {
  const tuple = `(${COLUMNS.map(() => "?").join(", ")})`;
  return `INSERT INTO tracking_events (${names}) VALUES ${Array.from({ length: rows }, () => tuple).join(", ")} ${conflict}`;
}

/**
 * SQLite's INSERT of `rows` events of one accepted upload (expand.ts): the columns
 * (`extra` only the fields that differ within the upload), plus `upload_id` and
 * `upload_index`, where the whole event stays on record.
 *
 * A column marked `constant` has one value for every event of the upload: it is bound
 * once, in a one-row subquery joined to the VALUES list of the other columns, so the
 * parameters are, in order: the upload id, the index of the first of these rows in the
 * upload, the constant columns, then the other columns row after row. (Numbered
 * parameters named by every row would do the same, but node:sqlite binds `?NNN` in time
 * quadratic in their count: 2.5 ms for 1,400.) `WHERE true` keeps the upsert clause from
 * being read as the join's ON.
 */
export function sqliteExpandSql(constant: readonly boolean[], rows: number): string {
  if (constant.length !== COLUMNS.length || rows < 1) throw new Error("tracking expand: bad statement shape");
  const shared: string[] = [];
  let varying = 0;
  const select = COLUMN_NAMES.map((name, column) => {
    if (!constant[column]) return `v.column${++varying}`;
    shared.push(`? AS ${name}`);
    return `c.${name}`;
  });
  const cells = Array.from({ length: varying }, () => "?");
  const tuples = Array.from({ length: rows }, (_, row) => `(${[...cells, String(row)].join(", ")})`);
  const constants = ["? AS upload_id", "? AS first_index", ...shared].join(", ");
  return `INSERT INTO tracking_events (${names}, upload_id, upload_index) SELECT ${select.join(", ")}, c.upload_id, c.first_index + v.column${varying + 1} FROM (SELECT ${constants}) AS c, (VALUES ${tuples.join(", ")}) AS v WHERE true ${conflict}`;
}

/** Skipped repeats on PostgreSQL's bulk insert (`PlatformDb.copyInto`). */
export const POSTGRES_CONFLICT = conflict;

/** A text as a field of COPY's text format: backslash, tab, newline and return escaped. */
export function copyField(text: string): string {
  if (!COPY_SPECIAL.test(text)) return text;
  return text.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c] ?? c);
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
const NUMERIC = COLUMNS.map(([, type]) => type === "int" || type === "bigint");

/**
 * Rows in COPY's text format, columns in COLUMN_NAMES order: what PostgreSQL's bulk
 * insert reads (one line a row, tab-separated). Cheaper to make than the array literals
 * of `columnArrays` (no quoting), and cheaper for PostgreSQL to read.
 */
export function copyRows(rows: readonly StoredRow[]): string {
  let text = "";
  for (const row of rows) {
    for (let c = 0; c < COLUMN_NAMES.length; c++) {
      const value = row[COLUMN_NAMES[c] as ColumnName];
      if (c > 0) text += "\t";
      text += NUMERIC[c] ? String(value) : copyField(String(value));
    }
    text += "\n";
  }
  return text;
}

const PLAIN = COLUMN_NAMES.filter((name) => name !== "extra");

/**
 * Rows packed for the SQLite writer thread as one string: a JSON array of every plain
 * column value, row after row, then each row's `extra` on a line of its own. `extra` is
 * JSON already (it never holds a raw newline), so it is neither escaped into the array
 * nor parsed again by the writer, which binds it as it is. `unpackRows` reads it back.
 *
 * NOTE: `extra` is the last column, so a row binds as plain values then `extra`.
 */
export function packRows(rows: readonly StoredRow[]): string {
  const plain: (string | number)[] = [];
  let extras = "";
  for (const row of rows) {
    for (const name of PLAIN) plain.push(row[name]);
    extras += `\n${row.extra}`;
  }
  return JSON.stringify(plain) + extras;
}

/** The values of `rows` packed rows, ready to bind: every column of every row, in order. */
export function unpackRows(packed: string, rows: number): (string | number)[] {
  const lines = packed.split("\n");
  const plain = JSON.parse(lines[0] ?? "[]") as (string | number)[];
  if (lines.length !== rows + 1 || plain.length !== rows * PLAIN.length) {
    throw new Error("packed rows do not match the row count");
  }
  const out: (string | number)[] = new Array(rows * COLUMN_NAMES.length);
  let at = 0;
  for (let row = 0; row < rows; row++) {
    for (let i = 0; i < PLAIN.length; i++) out[at++] = plain[row * PLAIN.length + i] as string | number;
    out[at++] = lines[row + 1] as string;
  }
  return out;
}
