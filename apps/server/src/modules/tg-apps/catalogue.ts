import type { Queryable } from "../../platform/db/types.ts";
import { indexApp } from "./admin-repo.ts";

/** What the artwork seeder draws for an app (modules/media). */
export interface AppArtworkSubject {
  slug: string;
  name: string;
  category: number;
}

/** Every stored app's artwork subject, in the order they were added. */
export async function appArtworkSubjects(db: Queryable): Promise<AppArtworkSubject[]> {
  const rows = await db.all<{ slug: string; name: string; category: number | string }>(
    "SELECT slug, name, category FROM tg_apps ORDER BY id",
  );
  return rows.map((a) => ({ slug: a.slug, name: a.name, category: Number(a.category) }));
}

/** Rewrites the search index of every stored app (the content module's index seed); answers how many. */
export async function indexAllApps(tx: Queryable): Promise<number> {
  const rows = await tx.all<{ id: number | string }>("SELECT id FROM tg_apps");
  for (const r of rows) await indexApp(tx, Number(r.id));
  return rows.length;
}
