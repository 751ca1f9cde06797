import type { AirdropIndexResult } from "@meridian/contracts";
import { AIRDROPS_API } from "@meridian/contracts/airdrop-rules";
import { getLocale, localizePath } from "@meridian/contracts/locales";
import { apiGet, serverOf } from "../features/airdrops/api.server.ts";
import { atomXml } from "../features/seo/feed.server.ts";
import { fillTemplate } from "../features/seo/seo.ts";
import { xmlResponse } from "../features/seo/sitemap.server.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/feed-airdrops";

const DAY = 86_400_000;

/**
 * `/<locale>/airdrops/feed.xml`: Atom feed of airdrops that started in the last 30 days
 * (new) and running ones that end within 7 days (ending soon), in the locale's language.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const { items } = await apiGet<AirdropIndexResult>(server, `${AIRDROPS_API.index}?locale=${locale}`);
  const seo = loadI18n(locale, ["seo"]).bundles.seo as {
    airdrops?: { feed?: { title?: string; subtitle?: string }; feedNew?: string; feedEnding?: string };
  };
  const t = seo.airdrops ?? {};
  const now = Date.now();
  const url = (path: string) => `${server.origin}${localizePath(locale, path)}`;
  const entries = items.flatMap((a) => {
    const out = [];
    const vars = { name: a.name, ticker: a.ticker };
    if (a.startAt <= now && a.startAt > now - 30 * DAY) {
      out.push({
        id: `${url(`/airdrops/${a.slug}`)}#new`,
        title: fillTemplate(t.feedNew ?? "New: {name} ({ticker})", vars),
        summary: a.description,
        url: url(`/airdrops/${a.slug}`),
        published: a.startAt,
        updated: Math.max(a.startAt, a.updatedAt),
      });
    }
    if (a.startAt <= now && a.endAt > now && a.endAt <= now + 7 * DAY) {
      out.push({
        id: `${url(`/airdrops/${a.slug}`)}#ending`,
        title: fillTemplate(t.feedEnding ?? "Ending soon: {name} ({ticker})", vars),
        summary: a.description,
        url: url(`/airdrops/${a.slug}`),
        published: a.endAt - 7 * DAY,
        updated: a.endAt - 7 * DAY,
      });
    }
    return out;
  });
  entries.sort((x, y) => y.updated - x.updated);
  const xml = atomXml({
    self: url("/airdrops/feed.xml"),
    home: url("/airdrops"),
    title: t.feed?.title ?? "Meridian airdrops",
    subtitle: t.feed?.subtitle ?? "",
    lang: getLocale(locale).htmlLang,
    entries,
  });
  return xmlResponse(xml, "application/atom+xml; charset=utf-8");
}
