import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { QrConfirmPage } from "../features/account/qr-confirm.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/qr-login";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "qrLogin");

export default function RouteQrLogin({ loaderData }: Route.ComponentProps) {
  return <QrConfirmPage locale={loaderData.locale} />;
}
