import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { LoginHistoryPage } from "../features/account/security/history.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/subaccount-setting-history";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "history");

export default function RouteLoginHistoryPage({ loaderData }: Route.ComponentProps) {
  return <LoginHistoryPage locale={loaderData.locale} />;
}
