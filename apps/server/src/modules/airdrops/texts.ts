import type { FaqItem } from "@meridian/contracts";
import type { Queryable } from "../../platform/db/types.ts";

type Entity = "airdrop" | "news";
type Texts = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * Where the library's translations and the home FAQ are kept: the content module's
 * tables, reached through its `contentTexts` (passed in by the module list and the content
 * seeds), so that no SQL here names them. Each call runs on the connection or transaction
 * it is given.
 */
export interface AirdropTexts {
  /** id -> field -> value in `locale`, for the entities written there (holding `bodyField`). */
  written(
    q: Queryable,
    entity: Entity,
    ids: readonly number[],
    locale: string,
    bodyField: string,
  ): Promise<Map<number, Map<string, string>>>;
  /** Every stored text of one entity. */
  all(q: Queryable, entity: Entity, id: number): Promise<{ locale: string; field: string; value: string }[]>;
  /** id -> the locales in which each entity has `field`. */
  localesWith(
    q: Queryable,
    entity: Entity,
    ids: readonly number[],
    field: string,
  ): Promise<Map<number, string[]>>;
  /** Writes these fields over the stored ones; an empty string removes a field. */
  merge(tx: Queryable, entity: Entity, id: number, texts: Texts): Promise<void>;
  /** Replaces all of an entity's texts. */
  replace(tx: Queryable, entity: Entity, id: number, texts: Texts): Promise<void>;
  /** A page's FAQ in `locale`, English when that locale has none. */
  faq(q: Queryable, pageKey: string, locale: string): Promise<FaqItem[]>;
  /** Writes a page's FAQ in one locale (stored positions are left alone). */
  saveFaq(tx: Queryable, pageKey: string, locale: string, items: readonly FaqItem[]): Promise<void>;
}
