import { describe, expect, it, vi } from "vitest";
import { sanitizeUrl } from "./url.ts";

const quiet = { warn: false as const };

describe("sanitizeUrl allow-list", () => {
  it.each([
    ["#", "#"],
    ["https://example.com/a?b=1#c", "https://example.com/a?b=1#c"],
    ["HTTP://Example.COM", "http://example.com/"],
    ["  https://example.com/x y  ", "https://example.com/x%20y"],
    ["mailto:help@meridian.com", "mailto:help@meridian.com"],
    ["tel:+441234567", "tel:+441234567"],
    ["ftp://files.example.com/a.txt", "ftp://files.example.com/a.txt"],
    ["./a/b.png", "./a/b.png"],
    ["../up", "../up"],
    ["/ja/airdrops?x=1", "/ja/airdrops?x=1"],
    ["/search?q=%2F", "/search?q=%2F"],
    ["data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,iVBORw0KGgo="],
    ["data:image/webp;base64,UklGRg==", "data:image/webp;base64,UklGRg=="],
    ["meridian://trade/spot/BTCUSDT", "meridian://trade/spot/BTCUSDT"],
  ])("keeps %j", (input, expected) => {
    expect(sanitizeUrl(input, quiet)).toBe(expected);
  });

  it("keeps same-origin blob: URLs only", () => {
    const origin = "https://www.meridian.com";
    expect(sanitizeUrl("blob:https://www.meridian.com/0b1e-11", { origin, ...quiet })).toBe(
      "blob:https://www.meridian.com/0b1e-11",
    );
    expect(sanitizeUrl("blob:https://evil.com/0b1e-11", { origin, ...quiet })).toBe("");
    expect(sanitizeUrl("blob:https://www.meridian.com/0b1e-11", quiet)).toBe("");
  });

  it("takes the app deep-link schemes from configuration", () => {
    expect(sanitizeUrl("meridianpro://x", { appSchemes: ["meridianpro:"], ...quiet })).toBe(
      "meridianpro://x",
    );
    expect(sanitizeUrl("meridian://x", { appSchemes: ["meridianpro:"], ...quiet })).toBe("");
  });

  it("warns on the console when it rejects", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(sanitizeUrl("vbscript:msgbox(1)")).toBe("");
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain("blocked URL");
      expect(sanitizeUrl("")).toBe("");
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("sanitizeUrl bypass attempts", () => {
  it.each([
    ["plain", "javascript:alert(1)"],
    ["mixed case", "JaVaScRiPt:alert(1)"],
    ["decimal entity", "&#106;avascript:alert(1)"],
    ["decimal entity, no semicolon, zero padded", "&#0000106avascript:alert(1)"],
    ["hex entity", "&#x6A;avascript:alert(1)"],
    ["hex entity upper case", "&#X6a;avascript&#x3A;alert(1)"],
    ["named colon entity", "javascript&colon;alert(1)"],
    ["double-encoded entity", "&amp;#106;avascript:alert(1)"],
    ["percent-encoded letters", "%6A%61vascript:alert(1)"],
    ["percent-encoded colon", "javascript%3Aalert(1)"],
    ["double percent-encoding", "javascript%253Aalert(1)"],
    ["tab inside the scheme", "java\tscript:alert(1)"],
    ["newline inside the scheme", "java\nscript:alert(1)"],
    ["carriage return inside the scheme", "jav\rascript:alert(1)"],
    ["NUL inside the scheme", "java\u0000script:alert(1)"],
    ["entity tab inside the scheme", "java&Tab;script:alert(1)"],
    ["entity newline inside the scheme", "java&#10;script:alert(1)"],
    ["leading whitespace", "   javascript:alert(1)"],
    ["leading control characters", "\u0001\u0002javascript:alert(1)"],
    ["leading form feed and non-breaking space", "\f\u00a0javascript:alert(1)"],
    ["zero-width space inside", "java\u200bscript:alert(1)"],
    ["hidden in a query", "https://example.com/?next=javascript:alert(1)"],
    ["vbscript", "vbscript:msgbox(1)"],
    ["data text/html", "data:text/html,<script>alert(1)</script>"],
    ["data text/html base64", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
    ["data svg image", "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="],
    ["data png not base64", "data:image/png,<svg onload=alert(1)>"],
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with spaces", "  //evil.com/x"],
    ["slash backslash", "/\\evil.com"],
    ["double backslash", "\\\\evil.com"],
    ["backslash slash", "\\/evil.com"],
    ["slash tab slash", "/\t/evil.com"],
    ["entity slash", "/&#47;evil.com"],
    ["percent backslash", "/%5Cevil.com"],
    ["percent slash", "/%2F/evil.com"],
    ["bare relative path", "images/a.png"],
    ["fragment other than a lone #", "#section"],
    ["query only", "?a=1"],
    ["unknown scheme", "chrome://settings"],
    ["file scheme", "file:///etc/passwd"],
    ["http without a host", "https://"],
  ])("rejects %s", (_label, input) => {
    expect(sanitizeUrl(input, quiet)).toBe("");
  });
});
