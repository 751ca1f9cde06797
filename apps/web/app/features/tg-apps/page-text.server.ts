import { createI18n, type I18nPayload } from "../../i18n/i18n.ts";

/** The namespace's `t` on the server, for titles and JSON-LD built in loaders. */
export function tgT(i18n: I18nPayload) {
  return createI18n(i18n).getFixedT(i18n.lng, "tgApps");
}
