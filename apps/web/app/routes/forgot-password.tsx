import { ForgotPassword } from "../features/account/forgot-password.tsx";
import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/forgot-password";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "reset");

export default function RouteForgotPassword({ loaderData }: Route.ComponentProps) {
  return <ForgotPassword locale={loaderData.locale} />;
}
