import { LOCALE_COOKIE } from "@meridian/contracts/locales";
import { data, Outlet, redirect } from "react-router";
import { decideLocale } from "../i18n/locale-routing.ts";
import { readCookie } from "../lib/cookies.ts";
import type { Route } from "./+types/locale-layout";

export function loader({ request, params }: Route.LoaderArgs) {
  const decision = decideLocale({
    url: new URL(request.url),
    lang: params.lang,
    cookie: readCookie(request.headers.get("cookie"), LOCALE_COOKIE),
    acceptLanguage: request.headers.get("accept-language"),
  });
  if (decision.kind === "not-found") throw data(null, { status: 404 });
  if (decision.kind === "redirect") throw redirect(decision.to, decision.status);
  return { locale: decision.locale };
}

export default function LocaleLayout() {
  return <Outlet />;
}
