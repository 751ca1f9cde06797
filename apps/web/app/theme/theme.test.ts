import { describe, expect, it } from "vitest";
import {
  parseAppTheme,
  parseThemeCookie,
  resolveTheme,
  THEME_COOKIE_MAX_AGE_SECONDS,
  themeClassName,
} from "./theme.ts";

describe("theme resolution", () => {
  it("defaults to white", () => {
    expect(resolveTheme({})).toBe("white");
  });

  it("reads the cookie, and invalid values become white", () => {
    expect(resolveTheme({ cookie: "black" })).toBe("black");
    expect(resolveTheme({ cookie: "white" })).toBe("white");
    expect(resolveTheme({ cookie: "purple" })).toBe("white");
    expect(resolveTheme({ cookie: "BLACK" })).toBe("white");
    expect(parseThemeCookie("")).toBe("white");
  });

  it("lets appTheme force the theme over the cookie", () => {
    expect(resolveTheme({ appTheme: "dark", cookie: "white" })).toBe("black");
    expect(resolveTheme({ appTheme: "standard", cookie: "black" })).toBe("white");
  });

  it("ignores an unknown appTheme", () => {
    expect(parseAppTheme("black")).toBeUndefined();
    expect(resolveTheme({ appTheme: "neon", cookie: "black" })).toBe("black");
  });

  it("names the html class and keeps the cookie a year", () => {
    expect(themeClassName("white")).toBe("theme-white");
    expect(themeClassName("black")).toBe("theme-black");
    expect(THEME_COOKIE_MAX_AGE_SECONDS).toBe(365 * 24 * 60 * 60);
  });
});
