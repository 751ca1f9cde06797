import { LOCALES } from "@meridian/contracts/locales";
import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { getAntdLocale, loadLocaleModules } from "./locale-modules.ts";

describe("loadLocaleModules", () => {
  it("loads the antd locale object of every locale", async () => {
    for (const { code } of LOCALES) {
      await loadLocaleModules(code);
      expect(typeof getAntdLocale(code)?.locale, code).toBe("string");
    }
    expect(getAntdLocale("ja")?.locale).toBe("ja");
    expect(getAntdLocale("zh-TC")?.locale).toBe("zh-tw");
    expect(getAntdLocale("ar")?.locale).toBe("ar");
    expect(getAntdLocale("bg")?.locale).toBe("en");
  });

  it("registers the dayjs locale so instances can use it", async () => {
    await loadLocaleModules("ar");
    expect(dayjs("2026-01-05").locale("ar").format("MMMM")).toBe("يناير");
    await loadLocaleModules("uz");
    expect(dayjs("2026-01-05").locale("uz-latn").format("MMMM")).toBe("Yanvar");
  });
});
