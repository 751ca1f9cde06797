import { localeFromParams } from "../../i18n/locale-routing.ts";
import { loadI18n } from "../../i18n/resources.server.ts";

/** What every account route's loader returns: the locale and the `account` namespace. */
export function accountPageData(params: { lang?: string | undefined }) {
  const locale = localeFromParams(params);
  return { locale, i18n: loadI18n(locale, ["account"]) };
}
