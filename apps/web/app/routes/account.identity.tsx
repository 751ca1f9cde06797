import { IdentityVerification } from "../features/account/account-pages.tsx";
import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/account.identity";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "identity");

export default function AccountIdentityRoute({ loaderData }: Route.ComponentProps) {
  return <IdentityVerification locale={loaderData.locale} />;
}
