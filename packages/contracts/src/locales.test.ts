import { describe, expect, it } from "vitest";
import {
  CONTENT_ONLY_LOCALES,
  DEFAULT_LOCALE,
  findLocale,
  getLocale,
  isContentPath,
  LANGUAGE_TYPE_IDS,
  LOCALES,
  localeFromAcceptLanguage,
  localizePath,
  normalizeLocale,
  parseLocalePath,
  resolveLocale,
  VISIBLE_LOCALES,
} from "./locales.ts";

const SPEC_TABLE: ReadonlyArray<[string, number, string]> = [
  ["en", 0, "USD"],
  ["zh-CN", 1, "CNY"],
  ["ja", 2, "JPY"],
  ["asia", 3, "USD"],
  ["vi", 4, "VND"],
  ["zh-TC", 5, "TWD"],
  ["ru", 6, "RUB"],
  ["es", 7, "EUR"],
  ["it", 9, "EUR"],
  ["fr", 10, "EUR"],
  ["de", 11, "EUR"],
  ["pt", 12, "EUR"],
  ["id", 13, "IDR"],
  ["pl", 20, "USD"],
  ["uk", 21, "UAH"],
  ["es-ES", 23, "EUR"],
  ["pt-PT", 24, "EUR"],
  ["uz", 25, "UZS"],
  ["ar", 39, "AED"],
  ["ph", 40, "PHP"],
  ["en-GB", 41, "USD"],
  ["es-AR", 42, "EUR"],
  ["en-CA", 43, "CAD"],
];

describe("locale table", () => {
  it("holds the 23 visible locales of docs/product.md §3 with their type and currency, in order", () => {
    expect(VISIBLE_LOCALES.map((l) => [l.code, l.languageType, l.defaultCurrency])).toEqual(SPEC_TABLE);
  });

  it("has a hidden bg that shows English", () => {
    const bg = findLocale("bg");
    expect(bg?.hidden).toBe(true);
    expect(bg?.content).toBe("en");
    expect(bg?.languageKey).toBe("en_US");
  });

  it("maps locales to server language keys", () => {
    const keys = Object.fromEntries(LOCALES.map((l) => [l.code, l.languageKey]));
    expect(keys).toMatchObject({
      en: "en_US",
      "zh-CN": "zh_CN",
      ja: "ja_JP",
      "zh-TC": "zh_TW",
      vi: "vi_VN",
      ru: "ru_RU",
      es: "es_ES",
      it: "it_IT",
      fr: "fr_FR",
      de: "de_DE",
      pt: "pt_PT",
      id: "id_ID",
      pl: "pl_PL",
      uk: "uk_UA",
      uz: "uz_UZ",
      ar: "ar_SA",
      ph: "fil_PH",
      "en-GB": "en_GB",
      "es-AR": "es_AR",
      "en-CA": "en_CA",
    });
  });

  it("gives every entry a display name, an antd locale and a dayjs locale", () => {
    for (const l of LOCALES) {
      expect(l.displayName.length).toBeGreaterThan(1);
      expect(l.antdLocale).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
      expect(l.dayjsLocale).toMatch(/^[a-z]{2}(-[a-z]+)?$/);
    }
  });

  it("marks only ar right-to-left", () => {
    expect(LOCALES.filter((l) => l.dir === "rtl").map((l) => l.code)).toEqual(["ar"]);
  });

  it("shares base resources for regional variants", () => {
    expect(getLocale("es-AR").content).toBe("es");
    expect(getLocale("es-ES").content).toBe("es");
    expect(getLocale("pt-PT").content).toBe("pt");
    expect(getLocale("en-GB").content).toBe("en");
    expect(getLocale("en-CA").content).toBe("en");
    expect(getLocale("asia").content).toBe("en");
  });

  it("keeps the extra numeric ids tr 8 and sv 22", () => {
    expect(LANGUAGE_TYPE_IDS.tr).toBe(8);
    expect(LANGUAGE_TYPE_IDS.sv).toBe(22);
    expect(LANGUAGE_TYPE_IDS.ar).toBe(39);
    expect(LANGUAGE_TYPE_IDS.bg).toBeUndefined();
  });

  it("defaults to en", () => {
    expect(DEFAULT_LOCALE).toBe("en");
    expect(getLocale("xx").code).toBe("en");
    expect(getLocale(undefined).code).toBe("en");
  });
});

describe("normalizeLocale", () => {
  it.each([
    ["en-NG", "en"],
    ["en-IN", "en"],
    ["en-MY", "en"],
    ["en-FR", "en"],
    ["fr-FR", "fr"],
    ["ru-FR", "ru"],
    ["uz-UZ", "uz"],
    ["en-UZ", "en"],
    ["ru-UZ", "ru"],
    ["en-ZA", "en"],
    ["fr-SN", "fr"],
    ["ru-KZ", "ru"],
    ["ja_JP", "ja"],
    ["zh_TW", "zh-TC"],
    ["zh-Hant-HK", "zh-TC"],
    ["zh-cn", "zh-CN"],
    ["fil", "ph"],
    ["pt-BR", "pt"],
    ["bg", "bg"],
  ])("%s -> %s", (tag, code) => {
    expect(normalizeLocale(tag)).toBe(code);
  });

  it("rejects unknown tags and keeps bg out of browser matching", () => {
    expect(normalizeLocale("xx")).toBeUndefined();
    expect(normalizeLocale("")).toBeUndefined();
    expect(normalizeLocale("bg", false)).toBeUndefined();
  });
});

describe("parseLocalePath", () => {
  it("reads a supported prefix", () => {
    expect(parseLocalePath("/ja/airdrops")).toEqual({ locale: "ja", prefix: "ja", rest: "/airdrops" });
    expect(parseLocalePath("/zh-CN")).toEqual({ locale: "zh-CN", prefix: "zh-CN", rest: "/" });
    expect(parseLocalePath("/ar/")).toEqual({ locale: "ar", prefix: "ar", rest: "/" });
  });

  it("accepts bg and an explicit en", () => {
    expect(parseLocalePath("/bg/fee")).toEqual({ locale: "bg", prefix: "bg", rest: "/fee" });
    expect(parseLocalePath("/en/fee")).toEqual({ locale: "en", prefix: "en", rest: "/fee" });
  });

  it("matches case-insensitively and reports the prefix as written", () => {
    expect(parseLocalePath("/zh-cn/spot/BTCUSDT")).toEqual({
      locale: "zh-CN",
      prefix: "zh-cn",
      rest: "/spot/BTCUSDT",
    });
  });

  it("treats an unprefixed path as English", () => {
    expect(parseLocalePath("/")).toEqual({ locale: "en", prefix: undefined, rest: "/" });
    expect(parseLocalePath("/airdrops")).toEqual({ locale: "en", prefix: undefined, rest: "/airdrops" });
    expect(parseLocalePath("/fr-FR/x")).toEqual({ locale: "en", prefix: undefined, rest: "/fr-FR/x" });
    expect(parseLocalePath("/xx/x").prefix).toBeUndefined();
  });
});

describe("content-only locales", () => {
  it("serve nl, sv, th and tr on content pages only, with the API's ids where it has them", () => {
    expect(CONTENT_ONLY_LOCALES.map((l) => [l.code, l.languageType])).toEqual([
      ["nl", 26],
      ["sv", 22],
      ["th", 27],
      ["tr", 8],
    ]);
    expect(VISIBLE_LOCALES.some((l) => l.contentOnly)).toBe(false);
    expect(parseLocalePath("/tr/airdrops")).toEqual({ locale: "tr", prefix: "tr", rest: "/airdrops" });
    expect(isContentPath("/airdrops/notcoin")).toBe(true);
    expect(isContentPath("/telegram-apps")).toBe(true);
    expect(isContentPath("/airdropsx")).toBe(false);
    expect(isContentPath("/spot/BTCUSDT")).toBe(false);
    // Never picked from the browser: a Dutch visitor of the home page gets English.
    expect(localeFromAcceptLanguage("nl-NL,nl;q=0.9")).toBeUndefined();
  });
});

describe("localizePath", () => {
  it("leaves English unprefixed and prefixes every other locale", () => {
    expect(localizePath("en", "/airdrops")).toBe("/airdrops");
    expect(localizePath("ja", "/airdrops")).toBe("/ja/airdrops");
    expect(localizePath("ja", "/")).toBe("/ja");
    expect(localizePath("bg", "/fee")).toBe("/bg/fee");
    // A content-only language has only the content pages; its others are the English ones.
    expect(localizePath("nl", "/airdrops/notcoin?x=1")).toBe("/nl/airdrops/notcoin?x=1");
    expect(localizePath("nl", "/telegram-apps")).toBe("/nl/telegram-apps");
    expect(localizePath("th", "/spot/BTCUSDT")).toBe("/spot/BTCUSDT");
    expect(localizePath("tr", "/")).toBe("/");
    expect(localizePath("sv", "/nl/login?redirect=%2Fairdrops")).toBe("/login?redirect=%2Fairdrops");
  });

  it("replaces an existing prefix and keeps query and hash", () => {
    expect(localizePath("ar", "/ja/airdrops?x=1#top")).toBe("/ar/airdrops?x=1#top");
    expect(localizePath("en", "/ja/airdrops?locale=ja")).toBe("/airdrops?locale=ja");
    expect(localizePath("de", "/ja?x=1")).toBe("/de?x=1");
  });

  it("falls back to English for unknown locales", () => {
    expect(localizePath("xx", "/ja/fee")).toBe("/fee");
  });
});

describe("localeFromAcceptLanguage", () => {
  it("honours q-values and order", () => {
    expect(localeFromAcceptLanguage("de-CH, fr;q=0.9, en;q=0.8")).toBe("de");
    expect(localeFromAcceptLanguage("en;q=0.5, ja;q=0.9")).toBe("ja");
    expect(localeFromAcceptLanguage("xx, zh-TW;q=0.7")).toBe("zh-TC");
  });

  it("ignores unsupported, wildcard, zero-quality and hidden tags", () => {
    expect(localeFromAcceptLanguage("bg-BG, *")).toBeUndefined();
    expect(localeFromAcceptLanguage("ja;q=0")).toBeUndefined();
    expect(localeFromAcceptLanguage("")).toBeUndefined();
  });
});

describe("resolveLocale", () => {
  const all = { query: "de", cookie: "fr", acceptLanguage: "ja" };

  it("prefers the path prefix", () => {
    expect(resolveLocale({ pathname: "/ar/fee", ...all })).toEqual({ locale: "ar", source: "path" });
  });

  it("then the query, then the cookie, then Accept-Language, then English", () => {
    expect(resolveLocale({ pathname: "/fee", ...all })).toEqual({ locale: "de", source: "query" });
    expect(resolveLocale({ pathname: "/fee", ...all, query: "nope" })).toEqual({
      locale: "fr",
      source: "cookie",
    });
    expect(resolveLocale({ pathname: "/fee", acceptLanguage: "ja" })).toEqual({
      locale: "ja",
      source: "header",
    });
    expect(resolveLocale({ pathname: "/fee" })).toEqual({ locale: "en", source: "default" });
  });

  it("reads a cookie holding a server language key", () => {
    expect(resolveLocale({ pathname: "/", cookie: "vi_VN" })).toEqual({ locale: "vi", source: "cookie" });
  });
});
