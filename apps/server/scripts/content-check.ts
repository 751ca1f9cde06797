/**
 * Checks every demo content file against its schema (docs/content.md):
 * `npm run content:check`. Exits 1 and lists the problems when any file fails.
 */
import { ContentError, loadContent } from "../src/modules/content/index.ts";

try {
  const lib = loadContent();
  const langs = new Set<string>();
  for (const list of [lib.airdrops, lib.news, lib.apps, lib.articles])
    for (const item of list) for (const l of Object.keys(item.texts)) langs.add(l);
  console.log(
    `content: ${lib.files} files OK (${lib.airdrops.length} airdrops, ${lib.news.length} news, ${lib.apps.length} apps, ${lib.articles.length} articles; languages ${[...langs].sort().join(", ")})`,
  );
} catch (err) {
  if (!(err instanceof ContentError)) throw err;
  console.error(err.message);
  process.exitCode = 1;
}
