import type { FaqItem } from "@meridian/contracts";
import type { Queryable } from "../../platform/db/types.ts";

/** One stored text: an entity's field in one locale (lists as JSON text). */
export interface StoredText {
  locale: string;
  field: string;
  value: string;
}

const list = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * The content module's texts: the translations of other modules' entities
 * (`content_translations`, keyed by entity kind and id) and the pages' FAQs
 * (`content_faq`, keyed by page). The only SQL that names these tables; the airdrop library
 * reaches them through this object, which the module list passes it. Each call runs on the
 * connection or transaction it is given.
 */
export const contentTexts = {
  /**
   * id -> field -> value of one locale's texts, for the entities written in that locale
   * only (`bodyField` stored there): a page is wholly in one language.
   */
  async written(
    q: Queryable,
    entity: string,
    ids: readonly number[],
    locale: string,
    bodyField: string,
  ): Promise<Map<number, Map<string, string>>> {
    const out = new Map<number, Map<string, string>>();
    if (ids.length === 0) return out;
    const rows = await q.all<{ entity_id: number | string; field: string; value: string }>(
      `SELECT t.entity_id, t.field, t.value FROM content_translations t
       WHERE t.entity = ? AND t.locale = ? AND t.entity_id IN (${list(ids.length)})
         AND EXISTS (SELECT 1 FROM content_translations b WHERE b.entity = t.entity
           AND b.entity_id = t.entity_id AND b.locale = t.locale AND b.field = ?)`,
      [entity, locale, ...ids, bodyField],
    );
    for (const r of rows) {
      const id = Number(r.entity_id);
      out.set(id, (out.get(id) ?? new Map<string, string>()).set(r.field, r.value));
    }
    return out;
  },

  /** Every stored text of one entity, by locale. */
  all(q: Queryable, entity: string, id: number): Promise<StoredText[]> {
    return q.all<StoredText>(
      "SELECT locale, field, value FROM content_translations WHERE entity = ? AND entity_id = ? ORDER BY locale",
      [entity, id],
    );
  },

  /** id -> the locales (in order) in which each entity has `field`; an id with none maps to []. */
  async localesWith(
    q: Queryable,
    entity: string,
    ids: readonly number[],
    field: string,
  ): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await q.all<{ entity_id: number | string; locale: string }>(
      `SELECT entity_id, locale FROM content_translations
       WHERE entity = ? AND field = ? AND entity_id IN (${list(ids.length)}) ORDER BY locale`,
      [entity, field, ...ids],
    );
    for (const r of rows) out.get(Number(r.entity_id))?.push(r.locale);
    return out;
  },

  /**
   * Writes the given locale fields over the stored ones and leaves every locale and field
   * not named untouched. An empty string removes that field's text (English shows instead).
   */
  async merge(
    tx: Queryable,
    entity: string,
    id: number,
    texts: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  ): Promise<void> {
    for (const [locale, fields] of Object.entries(texts)) {
      for (const [field, value] of Object.entries(fields)) {
        if (value === undefined) continue;
        const text = asText(value);
        if (text === "") {
          await tx.run(
            "DELETE FROM content_translations WHERE entity = ? AND entity_id = ? AND locale = ? AND field = ?",
            [entity, id, locale, field],
          );
          continue;
        }
        await tx.run(
          `INSERT INTO content_translations (entity, entity_id, locale, field, value) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (entity, entity_id, locale, field) DO UPDATE SET value = excluded.value`,
          [entity, id, locale, field, text],
        );
      }
    }
  },

  /** Replaces every stored text of one entity with the given ones. */
  async replace(
    tx: Queryable,
    entity: string,
    id: number,
    texts: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  ): Promise<void> {
    await tx.run("DELETE FROM content_translations WHERE entity = ? AND entity_id = ?", [entity, id]);
    for (const [locale, fields] of Object.entries(texts)) {
      for (const [field, value] of Object.entries(fields)) {
        if (value === undefined) continue;
        await tx.run(
          "INSERT INTO content_translations (entity, entity_id, locale, field, value) VALUES (?, ?, ?, ?, ?)",
          [entity, id, locale, field, asText(value)],
        );
      }
    }
  },

  /** A page's FAQ in `locale` exactly (no fallback), in order. */
  faqIn(q: Queryable, pageKey: string, locale: string): Promise<FaqItem[]> {
    return q.all<FaqItem>(
      "SELECT question, answer FROM content_faq WHERE page_key = ? AND locale = ? ORDER BY position",
      [pageKey, locale],
    );
  },

  /** A page's FAQ in `locale`; English when that locale has none. */
  async faq(q: Queryable, pageKey: string, locale: string): Promise<FaqItem[]> {
    const rows = await q.all<{ locale: string; question: string; answer: string }>(
      `SELECT locale, question, answer FROM content_faq WHERE page_key = ? AND locale IN (?, 'en')
       ORDER BY position`,
      [pageKey, locale],
    );
    const own = rows.filter((r) => r.locale === locale);
    const chosen = own.length > 0 ? own : rows.filter((r) => r.locale === "en");
    return chosen.map((r) => ({ question: r.question, answer: r.answer }));
  },

  /** Writes a page's FAQ in one locale; positions already stored are left alone. */
  async saveFaq(tx: Queryable, pageKey: string, locale: string, items: readonly FaqItem[]): Promise<void> {
    for (const [i, item] of items.entries()) {
      await tx.run(
        `INSERT INTO content_faq (page_key, locale, position, question, answer) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (page_key, locale, position) DO NOTHING`,
        [pageKey, locale, i, item.question, item.answer],
      );
    }
  },
};

/** The content texts' interface (what the airdrop library is given). */
export type ContentTexts = typeof contentTexts;
