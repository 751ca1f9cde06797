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
 * them current. Runs at start, before the server answers. Returns how many rows changed
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
      `SELECT id FROM ${entity.table} WHERE html_version <> ? ORDER BY id`,
      [SANITIZER_VERSION],
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
