import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { ApiKeysPage } from "../features/account/security/api-keys.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/subaccount-setting-api";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "api");

export default function RouteApiKeysPage({ loaderData }: Route.ComponentProps) {
  return <ApiKeysPage locale={loaderData.locale} />;
}
