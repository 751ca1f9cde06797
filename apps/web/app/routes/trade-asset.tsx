import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import pagesStyles from "../features/account-records/pages.css?url";
import { AssetOverviewPage } from "../features/assets/assets-pages.tsx";
import { loadAssetsPage } from "../features/assets/page.server.ts";
import { assetsLinks, assetsMeta } from "../features/assets/route.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/trade-asset";

export const links: Route.LinksFunction = () => [...assetsLinks(), { rel: "stylesheet", href: pagesStyles }];

/** The phone layout of the wallets overview (app webviews link here). */
export function loader({ params }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  return { ...loadAssetsPage(locale, "overview"), i18n: loadI18n(locale, ["assets", "trade", "pages"]) };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return assetsMeta(loaderData);
}

export default function TradeAsset({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  const { t } = useTranslation("pages");
  const { locale } = loaderData;
  return (
    <div className="phone-page" data-testid="trade-asset-page">
      <AssetOverviewPage locale={locale} loggedIn={Boolean(root?.user)} />
      <nav className="phone-links" aria-label={t("phone.more")}>
        <a href={localizePath(locale, "/trade-asset-order")} data-testid="trade-asset-records">
          {t("phone.records")}
        </a>
        <a href={localizePath(locale, "/trade-spot/BTCUSDT")}>{t("phone.spot")}</a>
        <a href={localizePath(locale, "/trade-swap/BTCUSDT")}>{t("phone.futures")}</a>
      </nav>
    </div>
  );
}
