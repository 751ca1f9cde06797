import { sameOriginPath } from "./same-origin-path.ts";
/**
 * The locale table (docs/product.md §3), shared by the server, the web app, the tracker and
 * the embeddable shell. Pure data plus pure functions: no I/O, no globals.
 *
 * NOTE: `code` is what appears in URLs (`/ja/airdrops`), in the `locale` cookie and in
 * the `?locale=` query. `languageKey` is what the API expects in its locale headers.
 * `content` names the translation set the interface shows: regional sites share their
 * base language's resources (es-AR shows `es`), and the hidden `bg` shows English.
 */

/** One supported site locale. */
export interface LocaleEntry {
  /** URL prefix, cookie and query value. */
  readonly code: string;
  /** Server language key, sent to the API (e.g. `ja_JP`). */
  readonly languageKey: string;
  /** The language's own name for itself, shown in the language picker. */
  readonly displayName: string;
  /** Numeric language type the API and the tracker use. */
  readonly languageType: number;
  /** ISO 4217 code of the fiat currency preselected for this locale. */
  readonly defaultCurrency: string;
  /** Ant Design locale module name (`antd/es/locale/<name>`). */
  readonly antdLocale: string;
  /** dayjs locale module name (`dayjs/locale/<name>`). */
  readonly dayjsLocale: string;
  /** Translation set shown: a base locale's code when this one has no resources of its own. */
  readonly content: string;
  /** BCP 47 tag for `<html lang>` and `Intl` formatting. */
  readonly htmlLang: string;
  /** Text direction. */
  readonly dir: "ltr" | "rtl";
  /** Hidden locales are accepted in URLs but not offered in the picker. */
  readonly hidden: boolean;
  /**
   * Content languages the site otherwise lacks (docs/content.md): served only on content
   * pages (CONTENT_PATH_PREFIXES), offered in those pages' picker, hreflang and sitemaps,
   * never chosen from a cookie or the browser for other pages.
   */
  readonly contentOnly: boolean;
}

const entry = (
  code: string,
  languageKey: string,
  displayName: string,
  languageType: number,
  defaultCurrency: string,
  antdLocale: string,
  dayjsLocale: string,
  extra: Partial<Pick<LocaleEntry, "content" | "htmlLang" | "dir" | "hidden" | "contentOnly">> = {},
): LocaleEntry => ({
  code,
  languageKey,
  displayName,
  languageType,
  defaultCurrency,
  antdLocale,
  dayjsLocale,
  content: extra.content ?? code,
  htmlLang: extra.htmlLang ?? code,
  dir: extra.dir ?? "ltr",
  hidden: extra.hidden ?? extra.contentOnly ?? false,
  contentOnly: extra.contentOnly ?? false,
});

/**
 * Every locale of the site, in picker order, followed by the hidden `bg`.
 * Language keys are not unique: a regional site reuses its base language's key where the
 * API has no separate one (asia speaks en_US; es-ES and pt-PT share es_ES and pt_PT).
 */
export const LOCALES: readonly LocaleEntry[] = [
  entry("en", "en_US", "English", 0, "USD", "en_US", "en"),
  entry("zh-CN", "zh_CN", "简体中文", 1, "CNY", "zh_CN", "zh-cn", { htmlLang: "zh-Hans" }),
  entry("ja", "ja_JP", "日本語", 2, "JPY", "ja_JP", "ja"),
  entry("asia", "en_US", "English (Asia)", 3, "USD", "en_US", "en", { content: "en", htmlLang: "en" }),
  entry("vi", "vi_VN", "Tiếng Việt", 4, "VND", "vi_VN", "vi"),
  entry("zh-TC", "zh_TW", "繁體中文", 5, "TWD", "zh_TW", "zh-tw", { htmlLang: "zh-Hant" }),
  entry("ru", "ru_RU", "Русский", 6, "RUB", "ru_RU", "ru"),
  entry("es", "es_ES", "Español", 7, "EUR", "es_ES", "es"),
  entry("it", "it_IT", "Italiano", 9, "EUR", "it_IT", "it"),
  entry("fr", "fr_FR", "Français", 10, "EUR", "fr_FR", "fr"),
  entry("de", "de_DE", "Deutsch", 11, "EUR", "de_DE", "de"),
  entry("pt", "pt_PT", "Português", 12, "EUR", "pt_PT", "pt"),
  entry("id", "id_ID", "Bahasa Indonesia", 13, "IDR", "id_ID", "id"),
  entry("pl", "pl_PL", "Polski", 20, "USD", "pl_PL", "pl"),
  entry("uk", "uk_UA", "Українська", 21, "UAH", "uk_UA", "uk"),
  entry("es-ES", "es_ES", "Español (España)", 23, "EUR", "es_ES", "es", { content: "es" }),
  entry("pt-PT", "pt_PT", "Português (Portugal)", 24, "EUR", "pt_PT", "pt", { content: "pt" }),
  entry("uz", "uz_UZ", "Oʻzbekcha", 25, "UZS", "uz_UZ", "uz-latn"),
  entry("ar", "ar_SA", "العربية", 39, "AED", "ar_EG", "ar", { dir: "rtl" }),
  entry("ph", "fil_PH", "Filipino", 40, "PHP", "en_US", "tl-ph", { htmlLang: "fil" }),
  entry("en-GB", "en_GB", "English (UK)", 41, "USD", "en_GB", "en-gb", { content: "en" }),
  entry("es-AR", "es_AR", "Español (Argentina)", 42, "EUR", "es_ES", "es", { content: "es" }),
  entry("en-CA", "en_CA", "English (Canada)", 43, "CAD", "en_US", "en-ca", { content: "en" }),
  entry("bg", "en_US", "English", 0, "USD", "en_US", "en", { content: "en", htmlLang: "en", hidden: true }),
  // Content-only languages: ids tr 8 and sv 22 as the API numbers them; nl and th have no
  // id there, so 26 and 27 are ours (docs/decisions.md). Swedish has no interface
  // strings of its own and falls back to English.
  entry("nl", "nl_NL", "Nederlands", 26, "EUR", "nl_NL", "nl", { contentOnly: true }),
  entry("sv", "sv_SE", "Svenska", 22, "EUR", "sv_SE", "sv", { contentOnly: true }),
  entry("th", "th_TH", "ไทย", 27, "USD", "th_TH", "th", { contentOnly: true }),
  entry("tr", "tr_TR", "Türkçe", 8, "USD", "tr_TR", "tr", { contentOnly: true }),
];

/** Default locale: English, served without a path prefix. */
export const DEFAULT_LOCALE = "en";

/** Locale and theme cookies live a year (docs/product.md §9). */
export const LOCALE_COOKIE = "locale";
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Locale codes offered in the language picker (the 23 visible ones). */
export const VISIBLE_LOCALES: readonly LocaleEntry[] = LOCALES.filter((l) => !l.hidden);

/** The content-only locales (nl, sv, th, tr): content pages only. */
export const CONTENT_ONLY_LOCALES: readonly LocaleEntry[] = LOCALES.filter((l) => l.contentOnly);

/** The picker of a content page: every visible locale plus the content-only ones. */
export const CONTENT_PAGE_LOCALES: readonly LocaleEntry[] = [...VISIBLE_LOCALES, ...CONTENT_ONLY_LOCALES];

/** Paths (without prefix) of the content pages, the only ones content-only locales serve. */
export const CONTENT_PATH_PREFIXES = ["/airdrops", "/telegram-apps"] as const;

/** True for a content page's path (without language prefix): the prefix itself or anything below it. */
export function isContentPath(path: string): boolean {
  const pathname = path.split(/[?#]/)[0] ?? "";
  return CONTENT_PATH_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * Numeric language ids: every locale's `languageType`, plus the ids the API knows for
 * languages the site does not serve (tr 8, sv 22).
 */
export const LANGUAGE_TYPE_IDS: Readonly<Record<string, number>> = Object.fromEntries(
  LOCALES.filter((l) => !l.hidden || l.contentOnly).map((l) => [l.code, l.languageType]),
);

/**
 * Regional codes from the other locale list, and common browser tags, mapped to the
 * locale that serves them. Matching is case-insensitive. Other English, French and
 * Russian regional variants reach their base language through the primary subtag.
 */
export const LOCALE_ALIASES: Readonly<Record<string, string>> = {
  "en-us": "en",
  "en-ng": "en",
  "en-in": "en",
  "en-my": "en",
  "en-fr": "en",
  "en-uz": "en",
  "en-au": "en",
  "en-sg": "en",
  "fr-fr": "fr",
  "fr-be": "fr",
  "fr-ca": "fr",
  "fr-ch": "fr",
  "ru-fr": "ru",
  "ru-uz": "ru",
  "ru-ru": "ru",
  "uz-uz": "uz",
  "uz-latn": "uz",
  zh: "zh-CN",
  "zh-hans": "zh-CN",
  "zh-sg": "zh-CN",
  "zh-tw": "zh-TC",
  "zh-hk": "zh-TC",
  "zh-mo": "zh-TC",
  "zh-hant": "zh-TC",
  fil: "ph",
  tl: "ph",
  "fil-ph": "ph",
  "ja-jp": "ja",
  "vi-vn": "vi",
  "id-id": "id",
  "pl-pl": "pl",
  "uk-ua": "uk",
  "de-de": "de",
  "it-it": "it",
  "pt-br": "pt",
  "es-419": "es",
  "es-mx": "es",
  "ar-sa": "ar",
  "ar-ae": "ar",
  "ar-eg": "ar",
};

const byLowerCode = new Map(LOCALES.map((l) => [l.code.toLowerCase(), l]));
const byLanguageKey = new Map<string, LocaleEntry>();
for (const l of LOCALES) {
  if (!l.hidden && !byLanguageKey.has(l.languageKey.toLowerCase())) {
    byLanguageKey.set(l.languageKey.toLowerCase(), l);
  }
}

const defaultEntry = byLowerCode.get(DEFAULT_LOCALE);
if (!defaultEntry) throw new Error("locale table misses the default locale");

/** The entry for an exact supported code (case-insensitive), or undefined. */
export function findLocale(code: string | null | undefined): LocaleEntry | undefined {
  return code ? byLowerCode.get(code.toLowerCase()) : undefined;
}

/** The entry for a code, falling back to the default locale. */
export function getLocale(code: string | null | undefined): LocaleEntry {
  return findLocale(code) ?? (defaultEntry as LocaleEntry);
}

/** True for the locales the site serves (the 23 plus the hidden bg). */
export function isSupportedLocale(code: string | null | undefined): boolean {
  return findLocale(code) !== undefined;
}

/**
 * Maps any tag the outside world sends (supported code, regional alias, server language
 * key such as `ja_JP`, or a browser tag such as `fr-CH`) to a supported locale code.
 * `includeHidden` lets an explicit choice of `bg` through; browsers never select it.
 */
export function normalizeLocale(tag: string | null | undefined, includeHidden = true): string | undefined {
  if (!tag) return undefined;
  const lower = tag.trim().toLowerCase();
  if (!lower) return undefined;
  const exact = byLowerCode.get(lower);
  if (exact && (includeHidden || !exact.hidden)) return exact.code;
  const fromKey = byLanguageKey.get(lower.replace("-", "_"));
  if (fromKey) return fromKey.code;
  // Drop subtags from the right ("zh-hant-hk" -> "zh-hant" -> "zh") until one is known.
  const subtags = lower.split(/[-_]/);
  for (let n = subtags.length; n > 0; n--) {
    const candidate = subtags.slice(0, n).join("-");
    const alias = LOCALE_ALIASES[candidate];
    if (alias) return alias;
    const base = byLowerCode.get(candidate);
    if (base && !base.hidden) return base.code;
  }
  return undefined;
}

/** Result of reading the optional language prefix off a path. */
export interface LocalePath {
  /** The locale the prefix names, or the default when there is none. */
  locale: string;
  /** The prefix exactly as written (e.g. `zh-cn`), or undefined when the path has none. */
  prefix: string | undefined;
  /** The path without the prefix, always starting with `/`. */
  rest: string;
}

/**
 * Reads the optional language prefix: the first segment when it names a supported locale
 * or bg (case-insensitive). English is normally unprefixed but `/en/...` is accepted.
 */
export function parseLocalePath(pathname: string): LocalePath {
  const path = pathname.startsWith("/") ? pathname : `/${pathname}`;
  const end = path.indexOf("/", 1);
  const first = end === -1 ? path.slice(1) : path.slice(1, end);
  const found = findLocale(first);
  if (!found) return { locale: DEFAULT_LOCALE, prefix: undefined, rest: path };
  const rest = end === -1 ? "/" : path.slice(end);
  return { locale: found.code, prefix: first, rest };
}

/**
 * Builds the path at which a locale's visitor finds a page: English unprefixed, every
 * other locale (bg included) as `/<code><path>`. A content-only locale (nl, sv, th, tr)
 * has only the content pages, so its other pages are the English ones, unprefixed: every
 * link a content-only page builds resolves (docs/content.md). Any existing prefix on
 * `path` is replaced. Query and hash kept.
 */
export function localizePath(locale: string, path: string): string {
  const hashAt = path.indexOf("#");
  const queryAt = path.indexOf("?");
  const cut = [hashAt, queryAt].filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? path.length;
  const pathname = path.slice(0, cut) || "/";
  const suffix = path.slice(cut);
  const { rest } = parseLocalePath(pathname);
  const entry = getLocale(locale);
  const code = entry.contentOnly && !isContentPath(rest) ? DEFAULT_LOCALE : entry.code;
  // NOTE: an unprefixed result is only as safe as `rest`: `//host` would leave the site.
  if (code === DEFAULT_LOCALE) return sameOriginPath(`${rest}${suffix}`);
  return sameOriginPath(`${rest === "/" ? `/${code}` : `/${code}${rest}`}${suffix}`);
}

/**
 * Picks the best supported locale from an Accept-Language header (q-values honoured,
 * order kept among equals). Hidden locales are never chosen this way.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.tag && r.tag !== "*" && r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const r of ranked) {
    const code = normalizeLocale(r.tag, false);
    if (code) return code;
  }
  return undefined;
}

/** Where the request's locale came from. */
export type LocaleSource = "path" | "query" | "cookie" | "header" | "default";

/** Inputs a request offers for locale resolution. */
export interface LocaleInputs {
  pathname: string;
  /** The `?locale=` query value. */
  query?: string | null;
  /** The `locale` cookie value (a code or a server language key). */
  cookie?: string | null;
  acceptLanguage?: string | null;
}

/**
 * Resolves the request's locale: a path prefix wins, then the `?locale=` query, then the
 * `locale` cookie, then Accept-Language, then English.
 */
export function resolveLocale(inputs: LocaleInputs): { locale: string; source: LocaleSource } {
  const fromPath = parseLocalePath(inputs.pathname);
  if (fromPath.prefix !== undefined) return { locale: fromPath.locale, source: "path" };
  const fromQuery = normalizeLocale(inputs.query);
  if (fromQuery) return { locale: fromQuery, source: "query" };
  const fromCookie = normalizeLocale(inputs.cookie);
  if (fromCookie) return { locale: fromCookie, source: "cookie" };
  const fromHeader = localeFromAcceptLanguage(inputs.acceptLanguage);
  if (fromHeader) return { locale: fromHeader, source: "header" };
  return { locale: DEFAULT_LOCALE, source: "default" };
}
