/** Tracking id and business categories of a page; "/" when the page is not tracked. */
export interface PageInfo {
  id: string;
  business1: string;
  business2: string;
}

/** docs/product.md §2, "Tracked pages": tested in this order, on the path without its trailing slash. */
const TRACKED: [RegExp, string][] = [
  [/\/telegram-apps$/, "b9332"],
  [/\/telegram-apps\/[^/]+\/articles$/, "b9642"],
  [/\/telegram-apps\/.+$/, "b9331"],
];

export function pageInfo(pathname: string): PageInfo {
  const path = pathname.replace(/\/+$/, "");
  for (const [pattern, id] of TRACKED) {
    if (pattern.test(path)) return { id, business1: "Price", business2: "Crypto Price" };
  }
  return { id: "/", business1: "", business2: "" };
}

/**
 * The tracking module's own language table (docs/product.md §3): path locale code ->
 * number sent as `user_language`. Where it differs from the site's language types
 * this table wins, because it is what the ingest has always received: `en-GB` is 3
 * (the site says 41) and `ar` is 99 (the site says 39). `asia` and the hidden `bg`
 * are English sites and count as `en`. Server language keys in comments.
 */
const LANGUAGES: Record<string, number> = {
  en: 0, // en_US
  "zh-cn": 1, // zh_CN
  ja: 2, // ja_JP
  "en-gb": 3, // en_GB
  vi: 4, // vi_VN
  "zh-tc": 5, // zh_TW
  ru: 6, // ru_RU
  es: 7, // es_ES
  tr: 8, // tr_TR
  it: 9, // it_IT
  fr: 10, // fr_FR
  de: 11, // de_DE
  pt: 12, // pt_BR
  id: 13, // id_ID
  pl: 20, // pl_PL
  uk: 21, // uk_UA
  sv: 22, // sv_SE
  "es-es": 23, // es_ES (Spain)
  "pt-pt": 24, // pt_PT
  uz: 25, // uz_UZ
  ph: 40, // en_PH
  "es-ar": 42, // es_AR
  "en-ca": 43, // en_CA
  ar: 99, // ar_SA
  asia: 0,
  bg: 0,
};

/**
 * `user_language` of a page: the locale in the first or the second path segment
 * (`/ja/telegram-apps`, `/telegram-apps/ja/...`), else the document language, else en (0).
 */
export function languageOf(pathname: string, documentLang = ""): number {
  const [, first = "", second = ""] = pathname.toLowerCase().split("/");
  for (const code of [first, second, documentLang.toLowerCase()]) {
    const value = LANGUAGES[code];
    if (value !== undefined) return value;
  }
  return 0;
}
