import { localizePath } from "@meridian/contracts/locales";
import { useSearchParams } from "react-router";
import { LoginForm } from "../features/account/login-form.tsx";
import { accountPageData } from "../features/account/page-data.server.ts";
import { accountMeta } from "../features/account/page-meta.ts";
import { safeReturnPath } from "../features/account/return-url.ts";
import { accountLinks } from "../ui/account-styles.ts";
import type { Route } from "./+types/login";

export function loader({ params }: Route.LoaderArgs) {
  return accountPageData(params);
}

export const links: Route.LinksFunction = accountLinks;

export const meta: Route.MetaFunction = ({ loaderData }) => accountMeta(loaderData, "login");

/** `?redirect=` (a path on this site only) is where a successful login goes; else the account overview. */
export default function Login({ loaderData }: Route.ComponentProps) {
  const { locale } = loaderData;
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get("redirect"));
  const register = localizePath(locale, "/register");
  return (
    <LoginForm
      locale={locale}
      returnTo={returnTo}
      signUpHref={returnTo ? `${register}?redirect=${encodeURIComponent(returnTo)}` : register}
      onDone={() => location.assign(returnTo ?? localizePath(locale, "/account/overview"))}
    />
  );
}
