import { useRouteLoaderData } from "react-router";
import pagesStyles from "../features/account-records/pages.css?url";
import { DownloadPage } from "../features/download/download-page.tsx";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import assetsStyles from "../styles/assets.css?url";
import type { Route } from "./+types/download";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: assetsStyles },
  { rel: "stylesheet", href: pagesStyles },
];

export function loader({ params }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["pages"]);
  const d = (i18n.bundles.pages as { download?: { metaTitle?: string; lead?: string } }).download;
  return { locale, i18n, title: d?.metaTitle ?? "Meridian app", description: d?.lead ?? "" };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData
    ? [{ title: loaderData.title }, { name: "description", content: loaderData.description }]
    : [];
}

export default function Download({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ origin?: string }>("root");
  return <DownloadPage locale={loaderData.locale} origin={root?.origin ?? ""} />;
}
