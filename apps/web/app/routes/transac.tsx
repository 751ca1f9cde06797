import { useRouteLoaderData } from "react-router";
import { statementLinks } from "../features/account-records/list-route.ts";
import { loadStatementPage } from "../features/account-records/page.server.ts";
import { TransacPage } from "../features/account-records/transac-page.tsx";
import { privatePageMeta } from "../features/margin/list-route.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/transac";

export const links: Route.LinksFunction = statementLinks;

export function loader({ params, context }: Route.LoaderArgs) {
  return loadStatementPage(localeFromParams(params), "transac", context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return privatePageMeta(loaderData);
}

export default function Transac({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return (
    <TransacPage locale={loaderData.locale} loggedIn={Boolean(root?.user)} symbols={loaderData.symbols} />
  );
}
