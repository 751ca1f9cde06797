import { isSameOriginPath } from "@meridian/contracts/same-origin-path";
import { describe, expect, it } from "vitest";
import { hostileRedirectParams } from "../../../../../packages/contracts/src/hostile-paths.ts";
import { safeReturnPath } from "./return-url.ts";

describe("safeReturnPath", () => {
  it("keeps same-origin paths with their query and hash", () => {
    expect(safeReturnPath("/telegram-apps/catizen")).toBe("/telegram-apps/catizen");
    expect(safeReturnPath("/ja/spot/BTCUSDT?x=1#book")).toBe("/ja/spot/BTCUSDT?x=1#book");
  });

  it("refuses other origins, schemes and relative forms", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "/%5Cevil.example",
      "/&#47;evil.example",
      "javascript:alert(1)",
      "/x?javascript:alert(1)",
      "./next",
      "../up",
      "mailto:a@b.c",
      "",
      null,
      undefined,
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBeUndefined();
    }
  });
});

describe("safeReturnPath over the hostile corpus", () => {
  it("returns nothing, or a same-origin path with no doubled slash that stays on the site", () => {
    const corpus = hostileRedirectParams();
    expect(corpus.length).toBeGreaterThan(1_000);
    for (const raw of corpus) {
      const out = safeReturnPath(raw);
      if (out === undefined) continue;
      expect(isSameOriginPath(out), `${JSON.stringify(raw)} -> ${out}`).toBe(true);
      expect(out.split(/[?#]/)[0]).not.toMatch(/\/\/|\\/);
      expect(new URL(out, "https://meridian.example/login").origin).toBe("https://meridian.example");
    }
  });

  it("collapses a doubled slash that a locale redirect would otherwise strip to //host", () => {
    expect(safeReturnPath("/EN//evil.example")).toBe("/EN/evil.example");
    expect(safeReturnPath("/fr-FR//evil.example?x=1")).toBe("/fr-FR/evil.example?x=1");
    expect(safeReturnPath("/%2F%2Fevil.example")).toBeUndefined();
  });
});
