import { subAccountsPageData } from "../features/subaccounts/page-data.server.ts";
import { SubAccountsPage } from "../features/subaccounts/sub-accounts-page.tsx";
import subAccountsStyles from "../features/subaccounts/subaccounts.css?url";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/subaccount.manage";

export function loader({ params }: Route.LoaderArgs) {
  return subAccountsPageData(params);
}

export const links: Route.LinksFunction = () => [
  ...accountLinks(),
  { rel: "stylesheet", href: subAccountsStyles },
];

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const title = (loaderData?.i18n.bundles.subaccounts as { meta?: { title?: string } } | undefined)?.meta
    ?.title;
  return [{ title: `${title ?? "Sub-accounts"} | Meridian` }, { name: "robots", content: "noindex" }];
};

export default function SubAccountManageRoute({ loaderData }: Route.ComponentProps) {
  return <SubAccountsPage locale={loaderData.locale} />;
}
