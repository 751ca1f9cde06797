import { describe, expect, it } from "vitest";
import { canonicalQuery, canonicalQueryOfMatches } from "./canonical.ts";
import { buildSeo } from "./seo.ts";

describe("canonical query", () => {
  it("keeps the given parameters in order and drops empty ones", () => {
    expect(canonicalQuery({ tab: "games", page: 2 })).toBe("?tab=games&page=2");
    expect(canonicalQuery({ tab: undefined, page: "" })).toBe("");
    expect(canonicalQuery(undefined)).toBe("");
  });

  it("reaches the canonical URL and og:url, and the root reads it from the deepest route", () => {
    const seo = buildSeo({
      origin: "https://meridian.test",
      locale: "ja",
      path: "/telegram-apps",
      title: "Apps",
      description: "d",
      canonicalParams: { tab: "games", page: 3 },
    });
    expect(seo.url).toBe("https://meridian.test/ja/telegram-apps?tab=games&page=3");
    expect(seo.canonicalQuery).toBe("?tab=games&page=3");
    expect(canonicalQueryOfMatches([{ loaderData: { locale: "ja" } }, { loaderData: { seo } }])).toBe(
      "?tab=games&page=3",
    );
    expect(canonicalQueryOfMatches([{ loaderData: undefined }, { loaderData: { title: "x" } }])).toBe("");
  });
});
