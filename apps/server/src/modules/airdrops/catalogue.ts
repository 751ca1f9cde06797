import type { Queryable } from "../../platform/db/types.ts";
import type { AirdropTexts } from "./texts.ts";
import { indexAirdrop } from "./writes.ts";

/** What the artwork seeder draws for an airdrop (modules/media). */
export interface AirdropArtworkSubject {
  slug: string;
  name: string;
  ticker: string;
  chain: string;
}

/** Every stored airdrop's artwork subject, in the order they were added. */
export function airdropArtworkSubjects(db: Queryable): Promise<AirdropArtworkSubject[]> {
  return db.all<AirdropArtworkSubject>("SELECT slug, name, ticker, chain FROM airdrops ORDER BY id");
}

/** Rewrites the search index of every stored airdrop (the content module's index seed); answers how many. */
export async function indexAllAirdrops(tx: Queryable, texts: AirdropTexts): Promise<number> {
  const rows = await tx.all<{ id: number | string }>("SELECT id FROM airdrops");
  for (const r of rows) await indexAirdrop(tx, texts, Number(r.id));
  return rows.length;
}
