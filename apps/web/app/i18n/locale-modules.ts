import { getLocale } from "@meridian/contracts/locales";
import type { Locale as AntdLocale } from "antd/es/locale";
import dayjs from "dayjs";

// One chunk per language, fetched only for the locale in use.
const antdLoaders: Record<string, () => Promise<{ default: AntdLocale }>> = {
  en_US: () => import("antd/locale/en_US"),
  en_GB: () => import("antd/locale/en_GB"),
  zh_CN: () => import("antd/locale/zh_CN"),
  zh_TW: () => import("antd/locale/zh_TW"),
  ja_JP: () => import("antd/locale/ja_JP"),
  vi_VN: () => import("antd/locale/vi_VN"),
  ru_RU: () => import("antd/locale/ru_RU"),
  es_ES: () => import("antd/locale/es_ES"),
  it_IT: () => import("antd/locale/it_IT"),
  fr_FR: () => import("antd/locale/fr_FR"),
  de_DE: () => import("antd/locale/de_DE"),
  pt_PT: () => import("antd/locale/pt_PT"),
  id_ID: () => import("antd/locale/id_ID"),
  pl_PL: () => import("antd/locale/pl_PL"),
  uk_UA: () => import("antd/locale/uk_UA"),
  uz_UZ: () => import("antd/locale/uz_UZ"),
  ar_EG: () => import("antd/locale/ar_EG"),
  nl_NL: () => import("antd/locale/nl_NL"),
  sv_SE: () => import("antd/locale/sv_SE"),
  th_TH: () => import("antd/locale/th_TH"),
  tr_TR: () => import("antd/locale/tr_TR"),
};

const dayjsLoaders: Record<string, () => Promise<unknown>> = {
  en: async () => undefined,
  "en-gb": () => import("dayjs/locale/en-gb"),
  "en-ca": () => import("dayjs/locale/en-ca"),
  "zh-cn": () => import("dayjs/locale/zh-cn"),
  "zh-tw": () => import("dayjs/locale/zh-tw"),
  ja: () => import("dayjs/locale/ja"),
  vi: () => import("dayjs/locale/vi"),
  ru: () => import("dayjs/locale/ru"),
  es: () => import("dayjs/locale/es"),
  it: () => import("dayjs/locale/it"),
  fr: () => import("dayjs/locale/fr"),
  de: () => import("dayjs/locale/de"),
  pt: () => import("dayjs/locale/pt"),
  id: () => import("dayjs/locale/id"),
  pl: () => import("dayjs/locale/pl"),
  uk: () => import("dayjs/locale/uk"),
  "uz-latn": () => import("dayjs/locale/uz-latn"),
  ar: () => import("dayjs/locale/ar"),
  "tl-ph": () => import("dayjs/locale/tl-ph"),
  nl: () => import("dayjs/locale/nl"),
  sv: () => import("dayjs/locale/sv"),
  th: () => import("dayjs/locale/th"),
  tr: () => import("dayjs/locale/tr"),
};

const antdLoaded = new Map<string, AntdLocale>();

/** Some CJS chunks arrive wrapped twice (`{default: {default: locale}}`) depending on interop. */
function unwrap(mod: { default: AntdLocale }): AntdLocale {
  const inner = mod.default as AntdLocale & { default?: AntdLocale };
  return inner.default ?? inner;
}

/**
 * Loads the Ant Design and dayjs locale data for a site locale. Await it before the first
 * render with that locale (server loader, client entry, root clientLoader) so the render
 * never falls back to English.
 */
export async function loadLocaleModules(code: string): Promise<void> {
  const entry = getLocale(code);
  const antdLoader = antdLoaders[entry.antdLocale];
  const dayjsLoader = dayjsLoaders[entry.dayjsLocale];
  await Promise.all([
    antdLoaded.has(entry.antdLocale) || !antdLoader
      ? undefined
      : antdLoader().then((mod) => {
          antdLoaded.set(entry.antdLocale, unwrap(mod));
        }),
    dayjsLoader?.(),
  ]);
}

const ready = new Map<string, Promise<void>>();

/**
 * `promise` marked settled the way React's `use` marks a promise it has seen, so `use`
 * reads it without suspending (React checks `status` before anything else).
 */
function markFulfilled(promise: Promise<void>): Promise<void> {
  Object.assign(promise, { status: "fulfilled", value: undefined });
  return promise;
}

/**
 * loadLocaleModules as one promise per locale, the same object on every call, for React's
 * `use` (AntdConfig suspends on it when a dialog opens before the data is there). A failed
 * chunk load resolves too: antd then speaks its built-in English rather than never rendering.
 * Once the data is there (loaded here or by loadLocaleModules) the promise is marked
 * fulfilled, so `use` returns at once: callers call `use` on every render, never only while
 * the data is missing (see AntdConfig).
 */
export function antdLocaleReady(code: string): Promise<void> {
  const key = getLocale(code).code;
  let promise = ready.get(key);
  if (!promise) {
    if (getAntdLocale(key)) promise = markFulfilled(Promise.resolve());
    else {
      const loading: Promise<void> = loadLocaleModules(key)
        .catch(() => undefined)
        .then(() => {
          markFulfilled(loading);
        });
      promise = loading;
    }
    ready.set(key, promise);
  }
  return promise;
}

/** The Ant Design locale object, once loadLocaleModules has run for this locale. */
export function getAntdLocale(code: string): AntdLocale | undefined {
  return antdLoaded.get(getLocale(code).antdLocale);
}

/**
 * Sets dayjs's global locale. Browser only: on the server, format with
 * `dayjs(value).locale(entry.dayjsLocale)` instead, since requests share the module.
 */
export function applyDayjsLocale(code: string): void {
  dayjs.locale(getLocale(code).dayjsLocale);
}
