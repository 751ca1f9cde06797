import { useRouteLoaderData } from "react-router";
import { statementLinks } from "../features/account-records/list-route.ts";
import { ContractOrdersPage } from "../features/account-records/mcp-pages.tsx";
import { loadStatementPage } from "../features/account-records/page.server.ts";
import { privatePageMeta } from "../features/margin/list-route.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/order-mcp";

export const links: Route.LinksFunction = statementLinks;

export function loader({ params, context }: Route.LoaderArgs) {
  return loadStatementPage(localeFromParams(params), "mcpOrders", context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return privatePageMeta(loaderData);
}

export default function OrderMcp({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return (
    <ContractOrdersPage
      locale={loaderData.locale}
      loggedIn={Boolean(root?.user)}
      contracts={loaderData.contracts}
    />
  );
}
