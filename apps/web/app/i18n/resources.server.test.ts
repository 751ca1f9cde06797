import { describe, expect, it } from "vitest";
import { loadI18n, resourceChain } from "./resources.server.ts";

type Shell = { nav: { airdrops: string; spot: string }; notFound: { title: string } };

describe("loadI18n", () => {
  it("serves a locale's own translations under its BCP 47 tag", () => {
    const { lng, bundles } = loadI18n("ja", ["shell"]);
    expect(lng).toBe("ja");
    expect((bundles.shell as Shell).notFound.title).toBe("404 - ページが見つかりません");
  });

  it("lets regional locales share their base language", () => {
    expect(resourceChain("es-AR")).toEqual(["en", "es", "es-AR"]);
    const { lng, bundles } = loadI18n("es-AR", ["shell"]);
    expect(lng).toBe("es-AR");
    expect((bundles.shell as Shell).nav.airdrops).toBe("Airdrops");
    expect((bundles.shell as Shell).notFound.title).toBe("404 - Página no encontrada");
  });

  it("shows English for the hidden bg and for unknown codes", () => {
    expect(loadI18n("bg", ["shell"]).lng).toBe("en");
    expect((loadI18n("bg", ["shell"]).bundles.shell as Shell).nav.spot).toBe("Spot");
    expect((loadI18n("xx", ["shell"]).bundles.shell as Shell).notFound.title).toBe("404 - Page not found");
  });

  it("returns an empty bundle for a namespace nobody wrote", () => {
    expect(loadI18n("en", ["no-such-namespace"]).bundles).toEqual({ "no-such-namespace": {} });
  });
});
