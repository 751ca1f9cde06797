import { describe, expect, it } from "vitest";
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
