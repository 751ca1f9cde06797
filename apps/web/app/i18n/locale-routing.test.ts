import { hostilePaths } from "@meridian/contracts/hostile-paths";
import { isSameOriginPath } from "@meridian/contracts/same-origin-path";
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

  it("serves content-only languages on content pages and nowhere else", () => {
    expect(decideLocale({ url: at("/nl/airdrops/notcoin"), lang: "nl" })).toEqual({
      kind: "render",
      locale: "nl",
    });
    expect(decideLocale({ url: at("/th/telegram-apps"), lang: "th" })).toEqual({
      kind: "render",
      locale: "th",
    });
    // Their other pages are the English ones; the bare prefix is the airdrop home.
    expect(decideLocale({ url: at("/tr/spot/BTCUSDT?x=1"), lang: "tr" })).toEqual({
      kind: "redirect",
      to: "/spot/BTCUSDT?x=1",
      status: 302,
    });
    expect(decideLocale({ url: at("/sv"), lang: "sv" })).toEqual({
      kind: "redirect",
      to: "/sv/airdrops",
      status: 302,
    });
    expect(decideLocale({ url: at("/NL/"), lang: "NL" })).toEqual({
      kind: "redirect",
      to: "/nl/airdrops",
      status: 302,
    });
    // A Swedish cookie does not send the home page to a prefix that has no home page.
    expect(decideLocale({ url: at("/"), lang: undefined, cookie: "sv" })).toEqual({
      kind: "render",
      locale: "en",
    });
    expect(decideLocale({ url: at("/airdrops"), lang: undefined, cookie: "sv" })).toEqual({
      kind: "redirect",
      to: "/sv/airdrops",
      status: 302,
    });
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

describe("decideLocale redirects over the hostile corpus", () => {
  it("every redirect it gives is a same-origin path", () => {
    let redirects = 0;
    for (const raw of hostilePaths()) {
      // The URL the loader sees: what the server routed (the canonical path edge refuses
      // or collapses most of these first; this checks the producer on its own).
      const url = new URL(raw.startsWith("/") ? raw : `/${raw}`, "https://meridian.example");
      const first = url.pathname.split("/")[1];
      for (const cookie of [undefined, "fr"]) {
        const decision = decideLocale({ url, lang: first === "" ? undefined : first, cookie });
        if (decision.kind !== "redirect") continue;
        redirects++;
        expect(isSameOriginPath(decision.to), `${raw} -> ${decision.to}`).toBe(true);
        expect(new URL(decision.to, "https://meridian.example/x/").origin).toBe("https://meridian.example");
      }
    }
    expect(redirects).toBeGreaterThan(500);
  });

  it("wrong-case and regional prefixes in front of a doubled slash stay on the site", () => {
    const url = new URL("https://meridian.example/EN//evil.example");
    // URL keeps the doubled slash in the pathname, as the router sees it.
    expect(decideLocale({ url, lang: "EN" })).toEqual({ kind: "redirect", to: "/evil.example", status: 301 });
  });
});
