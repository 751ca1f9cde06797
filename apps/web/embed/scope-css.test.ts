import postcss from "postcss";
import { describe, expect, it } from "vitest";
import { scopeSelector, scopeToShell } from "./scope-css.ts";

const run = (css: string) =>
  postcss([scopeToShell({ dropAntd: ["tag"] })])
    .process(css, { from: undefined })
    .then((result) => result.css);

describe("the embed stylesheet is scoped to the shell", () => {
  it("turns document-level selectors into the shell root and nests the rest", () => {
    expect(scopeSelector("html.theme-black")).toBe(".meridian-shell.theme-black");
    expect(scopeSelector("html")).toBe(".meridian-shell");
    expect(scopeSelector("body")).toBe(".meridian-shell");
    expect(scopeSelector("*::after")).toBe(".meridian-shell *::after");
    expect(scopeSelector("a:hover")).toBe(".meridian-shell a:hover");
    expect(scopeSelector(".shell-nav a[aria-current]")).toBe(".meridian-shell .shell-nav a[aria-current]");
    expect(scopeSelector("html.theme-black .shell-header")).toBe(".meridian-shell.theme-black .shell-header");
    // antd's own classes stay global: the legal dialog portals outside the header.
    expect(scopeSelector(".mer-dark.ant-btn")).toBe(".mer-dark.ant-btn");
  });

  it("drops page-only rules and unused antd components, keeps keyframes and media queries", async () => {
    const css = await run(`
      body { margin: 0 }
      .home-hero, .shell-footer { padding: 1px }
      .not-found { color: red }
      .mer-light.ant-tag { color: blue }
      .ant-btn, .ant-tag-red { color: green }
      @keyframes spin { 0% { opacity: 0 } to { opacity: 1 } }
      @media (max-width: 767px) { .shell-nav { display: none } }
    `);
    expect(css).toContain(".meridian-shell { margin: 0 }");
    expect(css).toContain(".meridian-shell .shell-footer { padding: 1px }");
    expect(css).not.toMatch(/home-hero|not-found|ant-tag/);
    expect(css).toContain(".ant-btn { color: green }");
    expect(css).toContain("0% { opacity: 0 }");
    expect(css).toMatch(/@media \(max-width: 767px\) \{ \.meridian-shell \.shell-nav/);
  });
});
