import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { AntiPhishingPage } from "../features/account/security/anti-phishing.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/subaccount-setting-antiphishing";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "antiPhishing");

export default function RouteAntiPhishingPage({ loaderData }: Route.ComponentProps) {
  return <AntiPhishingPage locale={loaderData.locale} />;
}
