import { localeFromParams } from "../../i18n/locale-routing.ts";
import { loadI18n } from "../../i18n/resources.server.ts";

/** The sub-account page's loader data: the locale and the `subaccounts` namespace. */
export function subAccountsPageData(params: { lang?: string | undefined }) {
  const locale = localeFromParams(params);
  return { locale, i18n: loadI18n(locale, ["subaccounts"]) };
}
