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

const PG_TYPE = { int: "integer", bigint: "bigint", text: "text", json: "text" } as const;

/**
 * PostgreSQL's INSERT of any number of rows: one array parameter per column, zipped back
 * into rows by `unnest`, so a whole group commit is one statement and one round trip.
 */
export const POSTGRES_INSERT_SQL = `INSERT INTO tracking_events (${names}) SELECT * FROM unnest(${COLUMNS.map(([, type]) => `?::${PG_TYPE[type]}[]`).join(", ")}) ${conflict}`;

/** A text as an element of a PostgreSQL array literal: in double quotes, `\` and `"` escaped. */
export function quoted(text: string): string {
  // JSON.stringify quotes the same way, natively, unless it meets what it escapes
  // otherwise (control characters, surrogates): only then are the two escapes spelled out
  if (!NOT_LIKE_JSON.test(text)) return JSON.stringify(text);
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this looks for (JSON.stringify escapes them differently).
const NOT_LIKE_JSON = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * Rows as PostgreSQL's INSERT binds them: one array literal per column (`{1,2}`,
 * `{"a","b"}`), the text form `pg` itself would send for a JavaScript array. Built
 * column by column in one string each (measured: 7.2 -> 2 us an event, most of it the
 * quoting of `extra`).
 */
export function columnArrays(rows: readonly StoredRow[]): string[] {
  return COLUMNS.map(([name, type]) => {
    const numeric = type === "int" || type === "bigint";
    let text = "{";
    for (let i = 0; i < rows.length; i++) {
      const value = (rows[i] as StoredRow)[name];
      if (i > 0) text += ",";
      text += numeric ? String(value) : quoted(String(value));
    }
    return `${text}}`;
  });
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
