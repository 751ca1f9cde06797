// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "./html.ts";

const quiet = { warn: false as const, origin: "https://www.meridian.com" };
const clean = (html: string, options = {}) => sanitizeHtml(html, { ...quiet, ...options });

describe("sanitizeHtml", () => {
  it("keeps article markup", () => {
    const html =
      '<h2 id="intro">Intro</h2><p class="lead">A <strong>b</strong> <em>c</em><br></p><ul><li>x</li></ul>' +
      '<table><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>' +
      '<figure><img src="/a.png" alt="a" width="10"><figcaption>cap</figcaption></figure>' +
      '<blockquote><code>q</code></blockquote><hr><div class="x"><span class="y">z</span></div>';
    expect(clean(html)).toBe(html);
  });

  it("drops comments and removes script and noscript with their contents", () => {
    expect(
      clean("<p>a<!-- secret --></p><script>alert(1)</script><noscript><b>no</b></noscript><p>b</p>"),
    ).toBe("<p>a</p><p>b</p>");
  });

  it("unwraps unknown elements but drops dangerous ones whole", () => {
    expect(clean("<font>kept</font><iframe src=/x>gone</iframe><svg><text>gone</text></svg>")).toBe("kept");
  });

  it("removes event handlers and data attributes", () => {
    expect(clean('<p onclick="alert(1)" data-x="1" onmouseover=alert(2)>t</p>')).toBe("<p>t</p>");
  });

  it.each([
    "background:url(javascript:alert(1))",
    "width: expression(alert(1))",
    "width: EXPRESSION (alert(1))",
    "background:url(java\\73 cript:alert(1))",
    "width: expr/**/ession(alert(1))",
    "background:url(&#106;avascript:alert(1))",
  ])("blanks style %j", (style) => {
    expect(clean(`<span style="${style.replaceAll('"', "&quot;")}">s</span>`)).toBe(
      '<span style="">s</span>',
    );
  });

  it("keeps harmless styles", () => {
    expect(clean('<span style="color: red; background: url(/a.png)">s</span>')).toBe(
      '<span style="color: red; background: url(/a.png)">s</span>',
    );
  });

  it("passes href and src through sanitizeUrl", () => {
    expect(
      clean(
        '<a href="javascript:alert(1)">a</a><a href="&#x6A;avascript:alert(1)">b</a><img src="//evil.com/x.png">',
      ),
    ).toBe("<a>a</a><a>b</a><img>");
    expect(clean('<a href=" https://example.com/a b">a</a>')).toBe(
      '<a href="https://example.com/a%20b" rel="noopener noreferrer">a</a>',
    );
  });

  it("adds noopener to links to another origin and keeps target only as _blank", () => {
    expect(clean('<a href="https://other.com/" target="_top" rel="nofollow opener">x</a>')).toBe(
      '<a href="https://other.com/" rel="nofollow noopener noreferrer">x</a>',
    );
    expect(clean('<a href="https://www.meridian.com/fee" target="_self">x</a>')).toBe(
      '<a href="https://www.meridian.com/fee">x</a>',
    );
    expect(clean('<a href="/fee" target="_blank">x</a>')).toBe(
      '<a href="/fee" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it("rewrites product links when asked", () => {
    const html = '<a href="https://jp.meridian.com/ja/fee?x=1#y">fee</a><a href="https://other.com/">o</a>';
    expect(clean(html, { productLinks: {} })).toBe(
      '<a href="/ja/fee?x=1#y">fee</a><a href="https://other.com/" rel="noopener noreferrer">o</a>',
    );
  });
});
