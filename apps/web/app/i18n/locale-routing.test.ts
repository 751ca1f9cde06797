import { describe, expect, it } from "vitest";
import { decideLocale, localeFromParams } from "./locale-routing.ts";

const at = (path: string) => new URL(`http://meridian.test${path}`);
const lang = (path: string) => {
  const first = path.split("?")[0]?.split("/")[1];
  return first ? first : undefined;
};

describe("decideLocale with a prefix", () => {
  it("renders supported prefixes and bg", () => {
    expect(decideLocale({ url: at("/ja/airdrops"), lang: "ja" })).toEqual({ kind: "render", locale: "ja" });
    expect(decideLocale({ url: at("/bg"), lang: "bg" })).toEqual({ kind: "render", locale: "bg" });
    expect(decideLocale({ url: at("/en/fee"), lang: "en" })).toEqual({ kind: "render", locale: "en" });
  });

  it("answers 404 for anything else in the first segment", () => {
    expect(decideLocale({ url: at("/xx/airdrops"), lang: "xx" })).toEqual({ kind: "not-found" });
    expect(decideLocale({ url: at("/no-such-page"), lang: lang("/no-such-page") })).toEqual({
      kind: "not-found",
    });
    expect(decideLocale({ url: at("/id-card"), lang: "id-card" })).toEqual({ kind: "not-found" });
  });

  it("sends case variants and regional aliases to the canonical prefix", () => {
    expect(decideLocale({ url: at("/zh-cn/fee?x=1"), lang: "zh-cn" })).toEqual({
      kind: "redirect",
      to: "/zh-CN/fee?x=1",
      status: 301,
    });
    expect(decideLocale({ url: at("/fr-FR/fee"), lang: "fr-FR" })).toEqual({
      kind: "redirect",
      to: "/fr/fee",
      status: 301,
    });
    expect(decideLocale({ url: at("/en-NG"), lang: "en-NG" })).toEqual({
      kind: "redirect",
      to: "/",
      status: 301,
    });
  });
});

describe("decideLocale without a prefix", () => {
  it("renders English by default", () => {
    expect(decideLocale({ url: at("/fee"), lang: undefined })).toEqual({ kind: "render", locale: "en" });
  });

  it("sends a visitor whose query, cookie or browser asks for another locale to its prefix", () => {
    expect(decideLocale({ url: at("/fee?locale=ar"), lang: undefined })).toEqual({
      kind: "redirect",
      to: "/ar/fee?locale=ar",
      status: 302,
    });
    expect(decideLocale({ url: at("/"), lang: undefined, cookie: "ja" })).toEqual({
      kind: "redirect",
      to: "/ja",
      status: 302,
    });
    expect(decideLocale({ url: at("/fee"), lang: undefined, acceptLanguage: "de-DE,de;q=0.9" })).toEqual({
      kind: "redirect",
      to: "/de/fee",
      status: 302,
    });
  });

  it("keeps English when the query says en, whatever the cookie", () => {
    expect(decideLocale({ url: at("/fee?locale=en"), lang: undefined, cookie: "ja" })).toEqual({
      kind: "render",
      locale: "en",
    });
  });
});

describe("localeFromParams", () => {
  it("maps the param to a locale code, English when absent", () => {
    expect(localeFromParams({ lang: "ar" })).toBe("ar");
    expect(localeFromParams({})).toBe("en");
  });
});
