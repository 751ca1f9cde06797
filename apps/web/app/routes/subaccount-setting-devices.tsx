import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { DevicesPage } from "../features/account/security/devices.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/subaccount-setting-devices";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "devices");

export default function RouteDevicesPage({ loaderData }: Route.ComponentProps) {
  return <DevicesPage locale={loaderData.locale} />;
}
