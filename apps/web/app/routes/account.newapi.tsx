import { ApiKeysPage } from "../features/api-keys/api-keys-page.tsx";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/account.newapi";

export function loader({ params }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  return { locale, i18n: loadI18n(locale, ["apiKeys"]) };
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const title = (loaderData?.i18n.bundles.apiKeys as { title?: string } | undefined)?.title ?? "API keys";
  return [{ title: `${title} | Meridian` }, { name: "robots", content: "noindex" }];
};

export default function AccountNewApiRoute({ loaderData }: Route.ComponentProps) {
  return <ApiKeysPage locale={loaderData.locale} />;
}
