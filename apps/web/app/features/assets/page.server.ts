import { loadI18n } from "../../i18n/resources.server.ts";

/** The loader data of the asset pages (/asset, /asset/spot): translations and the page's head. */
export function loadAssetsPage(locale: string, page: "overview" | "spot") {
  const i18n = loadI18n(locale, ["assets", "trade"]);
  const meta = (i18n.bundles.assets as { meta?: Record<string, { title?: string; description?: string }> })
    .meta?.[page];
  return { locale, i18n, title: meta?.title ?? "Meridian", description: meta?.description ?? "" };
}
