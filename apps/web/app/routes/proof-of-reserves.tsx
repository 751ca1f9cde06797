import { isSuccessCode, PorPath, type PorSummary, SESSION_COOKIE } from "@meridian/contracts";
import { useRouteLoaderData } from "react-router";
import pagesStyles from "../features/account-records/pages.css?url";
import { PorPage } from "../features/por/por-page.tsx";
import recordsStyles from "../features/trading-screen/records.css?url";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import { readCookie } from "../lib/cookies.ts";
import { readServerContext } from "../lib/server-context.server.ts";
import assetsStyles from "../styles/assets.css?url";
import type { Route } from "./+types/proof-of-reserves";

export const links: Route.LinksFunction = () =>
  [tradeStyles, tradeFormStyles, recordsStyles, assetsStyles, pagesStyles].map((href) => ({
    rel: "stylesheet",
    href,
  }));

/** The latest snapshot (public) and whether the visitor is an administrator (the build button). */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = readServerContext(context);
  const [summary, info] = await Promise.all([
    server?.api<PorSummary | null>(PorPath.SUMMARY).catch(() => undefined),
    readCookie(request.headers.get("cookie"), SESSION_COOKIE) === undefined
      ? undefined
      : server
          ?.api<{ userInfo?: { role?: string } } | null>("/v1/user/overview/userinfo", {
            method: "POST",
            body: {},
          })
          .catch(() => undefined),
  ]);
  const i18n = loadI18n(locale, ["pages"]);
  const por = (i18n.bundles.pages as { por?: { metaTitle?: string; lead?: string } }).por;
  return {
    locale,
    i18n,
    summary: summary && isSuccessCode(summary.code) ? summary.data : null,
    isAdmin: info !== undefined && isSuccessCode(info.code) && info.data?.userInfo?.role === "admin",
    title: por?.metaTitle ?? "Proof of reserves",
    description: por?.lead ?? "",
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData
    ? [{ title: loaderData.title }, { name: "description", content: loaderData.description }]
    : [];
}

export default function ProofOfReserves({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return <PorPage summary={loaderData.summary} loggedIn={Boolean(root?.user)} isAdmin={loaderData.isAdmin} />;
}
