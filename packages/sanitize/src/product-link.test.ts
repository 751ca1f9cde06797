import { describe, expect, it } from "vitest";
import { DEFAULT_PRODUCT_DOMAIN_PATTERNS, isProductHost, rewriteProductLink } from "./product-link.ts";

describe("rewriteProductLink", () => {
  it("ships about thirty default patterns", () => {
    expect(DEFAULT_PRODUCT_DOMAIN_PATTERNS.length).toBeGreaterThanOrEqual(28);
  });

  it.each([
    ["https://www.meridian.com/ja/fee?x=1#y", "/ja/fee?x=1#y"],
    ["http://meridian.co.uk/spot/BTCUSDT", "/spot/BTCUSDT"],
    ["//tr.meridian.com/", "/"],
    ["https://WWW.MERIDIAN.COM.", "/"],
    ["https://meridian.com//evil.com/x", "/evil.com/x"],
  ])("turns %j into a relative path", (input, expected) => {
    expect(rewriteProductLink(input)).toBe(expected);
  });

  it.each([
    "https://meridian.com.evil.net/x",
    "https://evilmeridian.com/x",
    "https://example.com/",
    "/already/relative",
    "mailto:a@meridian.com",
  ])("leaves %j alone", (input) => {
    expect(rewriteProductLink(input)).toBe(input);
  });

  it("swaps the domain to the current host in current-host mode", () => {
    expect(
      rewriteProductLink("https://meridian.de/de/fee", {
        mode: "current-host",
        currentHost: "localhost:3300",
      }),
    ).toBe("https://localhost:3300/de/fee");
  });

  it("takes patterns from configuration, with *. wildcards", () => {
    const patterns = ["*.example.org"];
    expect(isProductHost("a.b.example.org", patterns)).toBe(true);
    expect(isProductHost("example.org", patterns)).toBe(false);
    expect(rewriteProductLink("https://x.example.org/p", { productDomainPatterns: patterns })).toBe("/p");
    expect(rewriteProductLink("https://www.meridian.com/p", { productDomainPatterns: patterns })).toBe(
      "https://www.meridian.com/p",
    );
  });
});
