import fc from "fast-check";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { checkHtmlBounds, HTML_LIMITS } from "./bounds.ts";
import { sanitizeHtml } from "./html.ts";

const { document } = new JSDOM("<!doctype html><body></body>").window;

/** Depth of the tree a browser-grade parser (jsdom) builds, counted from the body's children. */
function domDepth(html: string): number {
  document.body.innerHTML = html;
  let max = 0;
  const stack: { node: Node; depth: number }[] = [{ node: document.body, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.depth > max) max = item.depth;
    const el = item.node as Element;
    const kids = el.nodeName === "TEMPLATE" ? (el as HTMLTemplateElement).content.childNodes : el.childNodes;
    for (const child of kids) if (child.nodeType === 1) stack.push({ node: child, depth: item.depth + 1 });
  }
  return max;
}

describe("checkHtmlBounds", () => {
  it("accepts ordinary article HTML", () => {
    expect(
      checkHtmlBounds('<h2>About</h2><p>Text <a href="https://x.example">link</a></p><ul><li>a</li></ul>'),
    ).toBe(undefined);
    expect(checkHtmlBounds(`${"<div>".repeat(HTML_LIMITS.maxDepth)}x`)).toBe(undefined);
  });

  it("refuses length, nesting and element count past the limits, saying which", () => {
    expect(checkHtmlBounds("a".repeat(HTML_LIMITS.maxLength + 1))?.rule).toBe("too_long");
    expect(checkHtmlBounds(`${"<div>".repeat(HTML_LIMITS.maxDepth + 1)}x`)).toEqual({
      rule: "too_deep",
      message: `HTML nests ${HTML_LIMITS.maxDepth + 1} elements deep; at most ${HTML_LIMITS.maxDepth} are accepted`,
    });
    expect(checkHtmlBounds("<br>".repeat(HTML_LIMITS.maxElements + 1))?.rule).toBe("too_many_elements");
  });

  it("judges the tree the parser builds, not the tags written", () => {
    // End tags hidden in quotes, raw text, or ignored by the parser do not close anything.
    expect(checkHtmlBounds('<div title="></div>">'.repeat(100))?.rule).toBe("too_deep");
    expect(checkHtmlBounds("<div><style></div></style>".repeat(100))?.rule).toBe("too_deep");
    expect(checkHtmlBounds(`<svg><style>${"<g>".repeat(100)}`)?.rule).toBe("too_deep");
    expect(checkHtmlBounds(`<template>${"<div>".repeat(100)}`)?.rule).toBe("too_deep");
    // Misnested formatting: the parser clones every open <b> again inside each new one.
    const clones = Array.from({ length: 400 }, (_, k) => `<p><b class=c${k}></p></x>`).join("");
    expect(clones.length).toBeLessThan(HTML_LIMITS.maxLength);
    expect(checkHtmlBounds(clones)).toBeDefined();
  });

  it("an accepted input never parses deeper than the limit (property)", () => {
    const tag = fc.constantFrom(
      "div",
      "b",
      "i",
      "p",
      "a",
      "table",
      "td",
      "tr",
      "li",
      "svg",
      "g",
      "style",
      "template",
    );
    const token = fc.oneof(
      tag.map((t) => `<${t}>`),
      tag.map((t) => `</${t}>`),
      fc.constantFrom("x", '<div title="</div>">', "<!--</div>-->", "<br>", "</x>", "<b class=q>"),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 200 }), (tokens) => {
        const html = tokens.join("");
        if (checkHtmlBounds(html, { ...HTML_LIMITS, maxDepth: 12 }) !== undefined) return;
        expect(domDepth(html)).toBeLessThanOrEqual(12);
      }),
      { numRuns: 150, seed: 15 },
    );
  });

  it("the worst accepted shape still sanitises (no stack overflow)", () => {
    const deep = `${"<div>".repeat(HTML_LIMITS.maxDepth)}x${"</div>".repeat(HTML_LIMITS.maxDepth)}`;
    expect(sanitizeHtml(deep, { warn: false })).toBe(deep);
  });
});
