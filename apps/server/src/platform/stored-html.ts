import { DEFAULT_PRODUCT_DOMAIN_PATTERNS, type SanitizeHtmlOptions, sanitizeHtml } from "@meridian/sanitize";
import { checkHtmlBounds, SANITIZER_VERSION as SANITIZER_CODE_VERSION } from "@meridian/sanitize/bounds";
import type { FastifyBaseLogger } from "fastify";
import type { Db, Queryable } from "./db/types.ts";
import { errors } from "./errors.ts";

let cleanOptions: SanitizeHtmlOptions = optionsOf(DEFAULT_PRODUCT_DOMAIN_PATTERNS);

function optionsOf(patterns: readonly string[]): SanitizeHtmlOptions {
  return { warn: false, productLinks: { productDomainPatterns: patterns, mode: "relative" } };
}

/** The sanitiser's version and a digest of its settings, in one `html_version` value. */
function versionOf(patterns: readonly string[]): number {
  let h = 0x811c9dc5;
  for (const c of [...patterns].sort().join(",")) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return SANITIZER_CODE_VERSION * 1_000_000 + (h % 1_000_000);
}

/**
 * What stored HTML was cleaned with: the sanitiser's version and its settings (the
 * product-domain list). Rows stored with another value are cleaned again at start, so a
 * changed PRODUCT_DOMAINS reaches every stored text. NOTE: a live binding, set once by
 * `useProductDomains` before the first write; writers store it as they read it.
 */
export let SANITIZER_VERSION = versionOf(DEFAULT_PRODUCT_DOMAIN_PATTERNS);

/**
 * Links in stored rich text to one of these hosts become relative (docs/product.md §9),
 * so content written with `https://www.meridian.com/fee` stays on the site that serves
 * it, whatever its domain. Called by the app with the configured list.
 */
export function useProductDomains(patterns: readonly string[]): void {
  cleanOptions = optionsOf(patterns);
  SANITIZER_VERSION = versionOf(patterns);
}

/**
 * Rich text is sanitised once, when it is written, and stored clean with the sanitiser's
 * version (`html_version`); pages serve it as stored. Sanitising on every page view cost
 * up to a second for a hostile 15 KB field, repeatable by any visitor past the page cache.
 *
 * `field` names the input field in the validation error (e.g. `translations.ar.about`).
 * Input beyond the bounds (`HTML_LIMITS`: length, nesting, elements) is refused with a
 * 400 (10422) saying which bound, never sanitised.
 */
export function cleanStoredHtml(field: string, html: string): string {
  if (html === "") return "";
  const issue = checkHtmlBounds(html);
  if (issue !== undefined) throw errors.validation([{ field, rule: issue.rule, message: issue.message }]);
  return sanitizeHtml(html, cleanOptions);
}

/** Where one entity keeps rich text: its own columns, and its translations' fields. */
export interface StoredHtml {
  /** The entity table, with an `id` and an `html_version` column. */
  table: string;
  columns: readonly string[];
  texts?: {
    table: string;
    /** The column naming the entity's id. */
    key: string;
    /** The translated fields that hold HTML. */
    fields: readonly string[];
    /** A shared texts table names the entity kind too. */
    kind?: { column: string; value: string };
  };
}

/**
 * Cleans again, with the current sanitiser, every row stored by an older one (and rows
 * from before versions were kept: `html_version` 0), translations included, then marks
 * them current. Runs at start, before the server answers. A row of a newer sanitiser
 * (written by a newer instance sharing the database) is left as it is. Returns how many rows changed
 * version. A stored value the sanitiser cannot handle (an old row past today's bounds)
 * is blanked, never served raw.
 */
export async function refreshStoredHtml(
  db: Db,
  entities: readonly StoredHtml[],
  log?: FastifyBaseLogger,
): Promise<number> {
  let refreshed = 0;
  for (const entity of entities) {
    const stale = await db.all<{ id: number | string }>(
      `SELECT id FROM ${entity.table} WHERE ${STALE_SQL} ORDER BY id`,
      staleParams(),
    );
    for (const { id } of stale) {
      await db.transaction(async (tx) => {
        await refreshRow(tx, entity, Number(id), log);
      });
      refreshed += 1;
    }
  }
  return refreshed;
}

/** A row as read for serving: its id and the sanitiser version it was cleaned with. */
export interface VersionedRow {
  id: number | string | bigint;
  html_version: number | string | null;
}

/**
 * Stale: cleaned by an older sanitiser, or by this one with other settings (another
 * product-domain list). A row of a newer sanitiser (a newer instance on the same
 * database) is left alone: cleaning it here would downgrade it.
 */
function isStale(row: VersionedRow): boolean {
  const version = Number(row.html_version ?? 0);
  const code = Math.floor(version / 1_000_000);
  return code < SANITIZER_CODE_VERSION || (code === SANITIZER_CODE_VERSION && version !== SANITIZER_VERSION);
}

/** `isStale` in SQL, with `staleParams()`. */
const STALE_SQL = "(html_version < ? OR (html_version < ? AND html_version <> ?))";
const staleParams = () => [
  SANITIZER_CODE_VERSION * 1_000_000,
  (SANITIZER_CODE_VERSION + 1) * 1_000_000,
  SANITIZER_VERSION,
];

/**
 * Serves rows of `entity` clean whatever wrote them: `read` runs once, and when a row it
 * returns was cleaned by an older sanitiser (an instance of an older version wrote it into
 * a shared database after this one started), that row is cleaned with the current
 * sanitiser and stored back once (`refreshStaleRow`), then `read` runs again. A current
 * row costs one comparison: no sanitiser and no extra query on the hot path.
 */
export async function readCurrentHtml<R extends VersionedRow>(
  db: Queryable,
  entity: StoredHtml,
  read: () => Promise<R[]>,
  log?: FastifyBaseLogger,
): Promise<R[]> {
  const rows = await read();
  const stale = rows.filter(isStale);
  if (stale.length === 0) return rows;
  for (const row of stale) await refreshStaleRow(db, entity, Number(row.id), log);
  return read();
}

/** `readCurrentHtml` for a read of one row (or none). */
export async function readOneCurrentHtml<R extends VersionedRow>(
  db: Queryable,
  entity: StoredHtml,
  read: () => Promise<R | undefined>,
  log?: FastifyBaseLogger,
): Promise<R | undefined> {
  const rows = await readCurrentHtml(
    db,
    entity,
    async () => {
      const row = await read();
      return row === undefined ? [] : [row];
    },
    log,
  );
  return rows[0];
}

/**
 * Cleans one row (and its translations) with the current sanitiser if it is still older
 * than it, in one transaction that holds the row: concurrent readers clean it once.
 * Returns whether it cleaned.
 */
export async function refreshStaleRow(
  db: Queryable,
  entity: StoredHtml,
  id: number,
  log?: FastifyBaseLogger,
): Promise<boolean> {
  // A repository may hold the plain query interface; the platform's databases all have transactions.
  const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> =>
    "transaction" in db ? (db as Db).transaction(fn) : fn(db);
  return inTransaction(async (tx) => {
    const lock = tx.dialect === "postgres" ? " FOR UPDATE" : "";
    const row = await tx.get<VersionedRow>(
      `SELECT id, html_version FROM ${entity.table} WHERE id = ?${lock}`,
      [id],
    );
    if (row === undefined || !isStale(row)) return false;
    await refreshRow(tx, entity, id, log);
    log?.info({ table: entity.table, id }, "stored HTML of an older sanitiser cleaned on read");
    return true;
  });
}

function recleaned(html: string, where: string, log: FastifyBaseLogger | undefined): string {
  if (html === "") return "";
  if (checkHtmlBounds(html) !== undefined) {
    log?.warn({ where }, "stored HTML beyond the sanitiser's bounds: blanked");
    return "";
  }
  return sanitizeHtml(html, cleanOptions);
}

async function refreshRow(
  tx: Queryable,
  entity: StoredHtml,
  id: number,
  log: FastifyBaseLogger | undefined,
): Promise<void> {
  const row = await tx.get<Record<string, string | null>>(
    `SELECT ${entity.columns.join(", ")} FROM ${entity.table} WHERE id = ?`,
    [id],
  );
  if (row === undefined) return;
  const values = entity.columns.map((c) => recleaned(row[c] ?? "", `${entity.table}.${c}#${id}`, log));
  await tx.run(
    `UPDATE ${entity.table} SET ${entity.columns.map((c) => `${c} = ?`).join(", ")}, html_version = ? WHERE id = ?`,
    [...values, SANITIZER_VERSION, id],
  );
  const texts = entity.texts;
  if (texts === undefined) return;
  const kind = texts.kind;
  const fieldList = texts.fields.map(() => "?").join(", ");
  const filter = `${texts.key} = ?${kind ? ` AND ${kind.column} = ?` : ""} AND field IN (${fieldList})`;
  const params = [id, ...(kind ? [kind.value] : []), ...texts.fields];
  const rows = await tx.all<{ locale: string; field: string; value: string }>(
    `SELECT locale, field, value FROM ${texts.table} WHERE ${filter}`,
    params,
  );
  for (const t of rows) {
    const clean = recleaned(t.value, `${texts.table}.${t.field}#${id}/${t.locale}`, log);
    if (clean === t.value) continue;
    await tx.run(`UPDATE ${texts.table} SET value = ? WHERE ${filter} AND locale = ? AND field = ?`, [
      clean,
      ...params,
      t.locale,
      t.field,
    ]);
  }
}
