import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostilePaths } from "./hostile-paths.ts";
import { LOCALES, localizePath } from "./locales.ts";
import { isSameOriginPath, sameOriginPath } from "./same-origin-path.ts";

// contracts compiles without DOM or Node types; the runtime (Node 24) has WHATWG URL.
const WhatwgUrl = (globalThis as unknown as { URL: new (url: string, base: string) => { origin: string } })
  .URL;

/** What a browser does with a Location: the origin it lands on. */
function landsOn(target: string): string {
  return new WhatwgUrl(target, "https://meridian.example/base/").origin;
}

describe("sameOriginPath", () => {
  it.each([
    ["//evil.example", "/evil.example"],
    ["/\\evil.example", "/evil.example"],
    ["/%2F%2fevil.example", "/evil.example"],
    ["/%5C/evil.example", "/evil.example"],
    ["/\t/evil.example", "/%09/evil.example"],
    ["https://evil.example", "/https://evil.example"],
    ["/fr//x", "/fr//x"],
    ["/", "/"],
    ["", "/"],
  ])("%j -> %j", (raw, safe) => {
    expect(sameOriginPath(raw)).toBe(safe);
    expect(isSameOriginPath(safe)).toBe(true);
  });

  it("never leaves the origin, for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 30 }), (s) => {
        const safe = sameOriginPath(s);
        expect(landsOn(safe)).toBe("https://meridian.example");
        expect(isSameOriginPath(safe)).toBe(true);
      }),
      { numRuns: 500, seed: 15 },
    );
  });
});

describe("localizePath over the hostile corpus", () => {
  it("gives a same-origin path for every locale", () => {
    const corpus = hostilePaths();
    expect(corpus.length).toBeGreaterThan(1_000);
    for (const path of corpus)
      for (const { code } of LOCALES) {
        const out = localizePath(code, path);
        expect(isSameOriginPath(out), `${code} ${JSON.stringify(path)} -> ${out}`).toBe(true);
        expect(landsOn(out)).toBe("https://meridian.example");
      }
  });
});
