import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { ModifyVerificationPage } from "../features/account/security/modify-verification.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/modifyverification";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "verification");

export default function RouteModifyVerificationPage({ loaderData }: Route.ComponentProps) {
  return <ModifyVerificationPage locale={loaderData.locale} />;
}
