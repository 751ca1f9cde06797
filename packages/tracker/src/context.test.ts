// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { KEY_FIRST_VISIT } from "./constants.ts";
import { baseContext, detectSys, firstVisit, parseAgent, validLogEnv } from "./context.ts";
import { languageOf, pageInfo } from "./pages.ts";

afterEach(() => localStorage.clear());

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68";
const MAC_APP =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Meridian/3.1 Chrome/124.0.0.0 Electron/30.0.0 Safari/537.36";

describe("context", () => {
  it("accepts log_env only as pre, online or test + 1-2 digits", () => {
    for (const ok of ["pre", "online", "test1", "test12"]) expect(validLogEnv(ok)).toBe(ok);
    for (const bad of ["test", "test123", "prod", "PRE", " pre", "testa1", ""])
      expect(validLogEnv(bad)).toBe("online");
    expect(validLogEnv(undefined)).toBe("online");
  });

  it("first_day is true while the first visit is less than 24 h old", () => {
    const t0 = Date.parse("2026-11-22T08:00:00Z");
    expect(firstVisit(t0)).toEqual({ first_visit_time: t0, first_day: true });
    expect(localStorage.getItem(KEY_FIRST_VISIT)).toBe(String(t0));
    expect(firstVisit(t0 + 23.9 * 3600e3).first_day).toBe(true);
    expect(firstVisit(t0 + 24 * 3600e3)).toEqual({ first_visit_time: t0, first_day: false });
  });

  it("reads browser, OS and device from the user agent", () => {
    expect(parseAgent(IPHONE)).toMatchObject({
      browser: "Safari",
      browser_version: "17.4",
      os_version: "iOS 17.4",
      brand: "Apple",
      model: "iPhone",
      mobile: true,
    });
    expect(parseAgent(ANDROID)).toMatchObject({
      browser: "Chrome",
      browser_version: "126.0.0.0",
      os_version: "Android 14",
      model: "SM-S918B",
    });
    expect(parseAgent(WINDOWS)).toMatchObject({ browser: "Edge", os_version: "Windows 10.0", mobile: false });
  });

  it("sys: web 3, mobile 4, app H5 5, Windows app 6, Mac app 7", () => {
    expect(detectSys(WINDOWS, false)).toBe(3);
    expect(detectSys(ANDROID, false)).toBe(4);
    expect(detectSys(ANDROID, true)).toBe(5);
    expect(detectSys(WINDOWS.replace("Edg/", "Electron/30.0.0 Edg/"), false)).toBe(6);
    expect(detectSys(MAC_APP, false)).toBe(7);
  });

  it("builds the synchronous part of the common context", () => {
    const ctx = baseContext(
      { appId: "a", appName: "Meridian", ver: "1", channel: "google", logEnv: "test3", sys: 6 },
      "w-1",
      false,
    );
    expect(ctx).toMatchObject({
      app_id: "a",
      lib_version: "1.1.45",
      log_env: "test3",
      channel: "google",
      sys: 6,
      uid: "w-1",
      device_id: "",
      url_host: location.host,
      first_day: true,
    });
    expect(ctx.timezone_offset).toBe(-new Date().getTimezoneOffset());
  });
});

describe("tracked pages", () => {
  it("maps path endings to tracking ids with Price / Crypto Price", () => {
    const tracked = { business1: "Price", business2: "Crypto Price" };
    expect(pageInfo("/telegram-apps")).toEqual({ id: "b9332", ...tracked });
    expect(pageInfo("/en/telegram-apps/")).toEqual({ id: "b9332", ...tracked });
    expect(pageInfo("/ja/telegram-apps/wallet-bot/articles")).toEqual({ id: "b9642", ...tracked });
    expect(pageInfo("/telegram-apps/wallet-bot")).toEqual({ id: "b9331", ...tracked });
    expect(pageInfo("/telegram-apps/games/top")).toEqual({ id: "b9331", ...tracked });
    expect(pageInfo("/airdrop")).toEqual({ id: "/", business1: "", business2: "" });
    expect(pageInfo("/telegram-apps-old")).toEqual({ id: "/", business1: "", business2: "" });
  });

  it("takes the language from the first or second path segment (tracking table)", () => {
    expect(languageOf("/telegram-apps")).toBe(0);
    expect(languageOf("/zh-CN/telegram-apps")).toBe(1);
    expect(languageOf("/ja/telegram-apps")).toBe(2);
    expect(languageOf("/en-GB/telegram-apps")).toBe(3);
    expect(languageOf("/zh-TC/telegram-apps")).toBe(5);
    expect(languageOf("/ar/telegram-apps")).toBe(99);
    expect(languageOf("/telegram-apps/ru/wallet-bot")).toBe(6);
    expect(languageOf("/telegram-apps/wallet-bot/de")).toBe(0);
    expect(languageOf("/telegram-apps", "fr")).toBe(10);
    expect(languageOf("/bg/telegram-apps")).toBe(0);
  });
});
