/**
 * The web app's layers (docs/architecture.md, "The web app"), for the tests that hold the
 * code and that page to them: scripts/boundaries.test.ts and scripts/architecture.test.ts.
 */

/** Entry points that may import any feature: the route modules and the islands bundle. */
export const WEB_ENTRIES: readonly string[] = ["routes", "islands"];

/**
 * The features one feature may import from another (`app/features/<name>/`): what spot,
 * margin and futures share, the shell (layout, Ant Design set-up, load errors, fiat) and
 * SEO (page metadata, canonical links, the sitemap section type).
 */
export const SHARED_FEATURE_LAYERS: readonly string[] = ["trading-screen", "shell", "seo"];

/**
 * The folders of `app/` below every feature: anyone may import them and they import no
 * feature (`api`: the /v1 clients and the session; `ui`: shared presentational pieces;
 * `lib`: hooks and state that are not UI).
 */
export const BELOW_FEATURES: readonly string[] = ["api", "ui", "lib", "i18n", "theme", "styles"];
