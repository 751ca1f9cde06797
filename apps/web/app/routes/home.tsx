import { loadHeroCoins } from "../features/home/hero-markets.server.ts";
import { HomePage } from "../features/home/home-page.tsx";
import { ISLANDS_PAGE_HANDLE } from "../features/shell/islands.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import { readServerContext } from "../lib/server-context.server.ts";
import type { Route } from "./+types/home";

/**
 * No antd and no hydration: the server HTML with the islands bundle only; the live prices
 * are its island (app/islands/markets.ts, features/shell/islands.ts).
 */
export const handle = ISLANDS_PAGE_HANDLE;

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const coins = await loadHeroCoins(readServerContext(context));
  const i18n = loadI18n(locale, ["home"]);
  const meta = (i18n.bundles.home as { meta?: { title?: string; description?: string } }).meta;
  return { locale, i18n, coins, title: meta?.title ?? "Meridian", description: meta?.description ?? "" };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { title: loaderData.title },
    { name: "description", content: loaderData.description },
    { property: "og:title", content: loaderData.title },
    { property: "og:description", content: loaderData.description },
    { property: "og:type", content: "website" },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomePage locale={loaderData.locale} coins={loaderData.coins} />;
}
