import { localizePath } from "@meridian/contracts/locales";
import { useSearchParams } from "react-router";
import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { RegisterForm } from "../features/account/register-form.tsx";
import { safeReturnPath } from "../features/account/return-url.ts";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/register";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) =>
  accountMeta(loaderData, "register", { index: true });

export default function Register({ loaderData }: Route.ComponentProps) {
  const { locale } = loaderData;
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get("redirect"));
  const login = localizePath(locale, "/login");
  return (
    <RegisterForm
      locale={locale}
      returnTo={returnTo}
      account={params.get("account") ?? undefined}
      loginHref={returnTo ? `${login}?redirect=${encodeURIComponent(returnTo)}` : login}
      onDone={() => location.assign(returnTo ?? localizePath(locale, "/account/overview"))}
    />
  );
}
