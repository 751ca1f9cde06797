import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { ThirdLoginPage } from "../features/account/third-party.tsx";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/third-login";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "thirdLogin");

/** Where an OpenID provider or Telegram's widget sends the browser back (`/third-login/<provider>`). */
export default function RouteThirdLogin({ loaderData, params }: Route.ComponentProps) {
  return <ThirdLoginPage locale={loaderData.locale} provider={params.provider} />;
}
