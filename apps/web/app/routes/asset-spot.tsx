import { useRouteLoaderData } from "react-router";
import assetsStyles from "../features/assets/assets.css?url";
import { SpotAssetsPage } from "../features/assets/assets-pages.tsx";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/asset-spot";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: assetsStyles }];

export function loader({ params }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["assets", "trade"]);
  const meta = (i18n.bundles.assets as { meta?: Record<string, { title?: string; description?: string }> })
    .meta?.spot;
  return { locale, i18n, title: meta?.title ?? "Meridian", description: meta?.description ?? "" };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { title: loaderData.title },
    { name: "description", content: loaderData.description },
    { name: "robots", content: "noindex" },
  ];
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return <SpotAssetsPage locale={loaderData.locale} loggedIn={Boolean(root?.user)} />;
}
