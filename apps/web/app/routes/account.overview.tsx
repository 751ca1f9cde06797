import { AccountOverview } from "../features/account/account-pages.tsx";

export function meta() {
  return [{ title: "Account | Meridian" }, { name: "robots", content: "noindex" }];
}

export default function AccountOverviewRoute() {
  return <AccountOverview />;
}
