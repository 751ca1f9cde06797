import { HomePage } from "../features/home/home-page.tsx";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/home";

export function loader({ params }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["home"]);
  const meta = (i18n.bundles.home as { meta?: { title?: string; description?: string } }).meta;
  return { locale, i18n, title: meta?.title ?? "Meridian", description: meta?.description ?? "" };
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
  return <HomePage locale={loaderData.locale} />;
}
