import { createInstance, type i18n as I18n } from "i18next";

/** Translations for one language: namespace -> nested key/value resources. */
export type Bundles = Record<string, Record<string, unknown>>;

/**
 * What a loader hands the page: the request's locale and the namespaces it needs,
 * already merged with their fallbacks on the server (see resources.server.ts), so the
 * browser never loads English first.
 */
export interface I18nPayload {
  /** BCP 47 tag (the locale entry's `htmlLang`): drives plural rules and Intl formatting. */
  lng: string;
  bundles: Bundles;
}

/** Namespaces every page needs: the shell and antd's form messages. */
export const SHELL_NAMESPACES = ["shell", "form"] as const;

/**
 * A private i18next instance (never the global one: the server renders requests for
 * different locales concurrently). Initialised synchronously from inline resources.
 */
export function createI18n(payload: I18nPayload): I18n {
  const i18n = createInstance();
  void i18n.init({
    lng: payload.lng,
    fallbackLng: false,
    // A copy of the namespace table: i18next adds later namespaces to the object it is
    // given, and loaders share their (memoised) payloads between requests.
    resources: { [payload.lng]: { ...payload.bundles } },
    ns: Object.keys(payload.bundles),
    defaultNS: "shell",
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return i18n;
}

/** Adds namespaces a route loaded after the instance was made; safe to call on every render. */
export function addBundles(i18n: I18n, payload: I18nPayload): void {
  for (const [ns, resources] of Object.entries(payload.bundles)) {
    if (!i18n.hasResourceBundle(payload.lng, ns))
      i18n.addResourceBundle(payload.lng, ns, resources, true, true);
  }
}
