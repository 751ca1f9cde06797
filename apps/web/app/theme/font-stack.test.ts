import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import postcss, { type AtRule, type Rule } from "postcss";
import { describe, expect, test } from "vitest";
import { fallbackDescriptors } from "../../scripts/font-fallbacks.ts";
import { fontPreloads } from "./font-preload.ts";
import { FONT_FAMILY } from "./font-stack.ts";

const require = createRequire(import.meta.url);
const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), "utf8");
const fontsCss = postcss.parse(read("../styles/fonts.css"));
const appCss = postcss.parse(read("../styles/app.css"));

/** A family list as its names: quotes and spacing do not matter. */
const families = (list: string) => list.split(",").map((name) => name.trim().replace(/^["']|["']$/g, ""));

function faces(): Map<string, string>[] {
  const out: Map<string, string>[] = [];
  fontsCss.walkAtRules("font-face", (rule: AtRule) => {
    const d = new Map<string, string>();
    rule.walkDecls((decl) => {
      d.set(decl.prop, decl.value);
    });
    out.push(d);
  });
  return out;
}

function declaration(selector: string, prop: string): string | undefined {
  let value: string | undefined;
  appCss.walkRules((rule: Rule) => {
    if (rule.selector !== selector) return;
    rule.walkDecls(prop, (decl) => {
      value = decl.value;
    });
  });
  return value;
}

/** The package's own unicode-range for one of its files, from its CSS (fontsource writes one face per file). */
function packageRange(file: string): string | undefined {
  const [pkg, name] = /^(@[^/]+\/[^/]+)\/files\/(.+)$/.exec(file)?.slice(1) ?? [];
  if (pkg === undefined || name === undefined) return undefined;
  const css = readFileSync(require.resolve(`${pkg}/wght.css`), "utf8");
  let range: string | undefined;
  postcss.parse(css).walkAtRules("font-face", (rule) => {
    let src = "";
    let unicode = "";
    rule.walkDecls((decl) => {
      if (decl.prop === "src") src = decl.value;
      if (decl.prop === "unicode-range") unicode = decl.value;
    });
    if (src.includes(`/files/${name}`)) range = unicode;
  });
  return range;
}

describe("shipped faces (fonts.css)", () => {
  const webFaces = faces().filter((f) => f.get("src")?.includes("url("));

  test("Inter for Latin, Latin-ext, Cyrillic, Vietnamese and Greek, Noto Sans Arabic for Arabic", () => {
    const files = webFaces.map((f) => /url\("([^"]+)"\)/.exec(f.get("src") ?? "")?.[1]);
    expect(files).toEqual([
      "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
      "@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2",
      "@fontsource-variable/inter/files/inter-cyrillic-wght-normal.woff2",
      "@fontsource-variable/inter/files/inter-cyrillic-ext-wght-normal.woff2",
      "@fontsource-variable/inter/files/inter-vietnamese-wght-normal.woff2",
      "@fontsource-variable/inter/files/inter-greek-wght-normal.woff2",
      "@fontsource-variable/inter/files/inter-greek-ext-wght-normal.woff2",
      "@fontsource-variable/noto-sans-arabic/files/noto-sans-arabic-arabic-wght-normal.woff2",
    ]);
    for (const file of files) expect(existsSync(require.resolve(file ?? "missing"))).toBe(true);
  });

  test("every face swaps, spans the weight axis, and keeps its package's unicode-range", () => {
    for (const face of webFaces) {
      const file = /url\("([^"]+)"\)/.exec(face.get("src") ?? "")?.[1] ?? "";
      expect(face.get("font-display"), file).toBe("swap");
      expect(face.get("font-weight"), file).toBe("100 900");
      expect(face.get("src"), file).toMatch(/format\("woff2"\)$/);
      const spaced = (range: string | undefined) => range?.replaceAll(/\s+/g, "");
      const own = packageRange(file);
      expect(own, file).toBeDefined();
      expect(spaced(face.get("unicode-range")), file).toBe(spaced(own));
    }
  });

  test("the fallback faces hold the metrics computed from the shipped Inter file", async () => {
    const expected = await fallbackDescriptors();
    const fallback = faces().filter((f) => f.get("src")?.startsWith("local("));
    expect(fallback.map((f) => families(f.get("font-family") ?? "")[0])).toEqual(
      expected.map((e) => e.family),
    );
    for (const [i, e] of expected.entries()) {
      const face = fallback[i];
      expect(face?.get("font-weight")).toBe(e.weight);
      expect(face?.get("src")).toBe(e.src);
      expect(face?.get("size-adjust")).toBe(e.sizeAdjust);
      expect(face?.get("ascent-override")).toBe(e.ascentOverride);
      expect(face?.get("descent-override")).toBe(e.descentOverride);
      expect(face?.get("line-gap-override")).toBe(e.lineGapOverride);
    }
    // Inter is wider than Arial and Roboto, about as wide as Noto Sans.
    expect(Number.parseFloat(expected[0]?.sizeAdjust ?? "0")).toBeGreaterThan(105);
  });
});

describe("font stack", () => {
  test("the site stylesheet names the same families as antd's token", () => {
    expect(families(declaration("body", "font-family") ?? "")).toEqual(families(FONT_FAMILY));
  });

  test("shipped faces first, then the fallback faces, then system fonts", () => {
    const names = families(FONT_FAMILY);
    const declared = [...new Set(faces().map((f) => families(f.get("font-family") ?? "")[0]))];
    expect(names.slice(0, declared.length)).toEqual(declared);
    expect(names.at(-1)).toBe("sans-serif");
  });

  test("the language picker outside Arabic pages: the same stack without the Arabic face", () => {
    const picker = declaration(".shell-language select:not(:lang(ar))", "font-family") ?? "";
    expect(families(picker)).toEqual(
      families(FONT_FAMILY).filter((name) => name !== "Noto Sans Arabic Variable"),
    );
  });
});

describe("preloads", () => {
  const file = (url: string) => /([a-z-]+-wght-normal)/.exec(url)?.[1];

  test("Latin on every page, and the file of the language's own script", () => {
    expect(fontPreloads("en").map(file)).toEqual(["inter-latin-wght-normal"]);
    expect(fontPreloads("zh-CN").map(file)).toEqual(["inter-latin-wght-normal"]);
    expect(fontPreloads("ru").map(file)).toEqual(["inter-latin-wght-normal", "inter-cyrillic-wght-normal"]);
    expect(fontPreloads("uk").map(file)).toEqual(["inter-latin-wght-normal", "inter-cyrillic-wght-normal"]);
    expect(fontPreloads("vi").map(file)).toEqual(["inter-latin-wght-normal", "inter-vietnamese-wght-normal"]);
    expect(fontPreloads("ar").map(file)).toEqual([
      "inter-latin-wght-normal",
      "noto-sans-arabic-arabic-wght-normal",
    ]);
  });
});
