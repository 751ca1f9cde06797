import { TwoFactorSetup } from "../features/account/account-pages.tsx";
import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { SecurityHub } from "../features/account/security/security-hub.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/account.security";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "security");

export default function AccountSecurityRoute({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <SecurityHub locale={loaderData.locale} />
      <TwoFactorSetup locale={loaderData.locale} embedded />
    </>
  );
}
