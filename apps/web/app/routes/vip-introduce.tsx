import { VipIntroPage } from "../features/fees/fee-pages.tsx";
import feesStyles from "../features/fees/fees.css?url";
import { loadVipLevel } from "../features/fees/vip.server.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/vip-introduce";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: feesStyles }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["fees"]);
  const meta = (i18n.bundles.fees as { meta?: Record<string, { title?: string; description?: string }> }).meta
    ?.intro;
  return {
    locale,
    i18n,
    level: await loadVipLevel(context),
    title: meta?.title ?? "Meridian",
    description: meta?.description ?? "",
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [{ title: loaderData.title }, { name: "description", content: loaderData.description }];
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <VipIntroPage locale={loaderData.locale} level={loaderData.level} />;
}
