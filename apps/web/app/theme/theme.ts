/**
 * Light and dark themes (docs/product.md §2 and §4): a page may force one with `?appTheme=`
 * (dark or standard); otherwise the `theme` cookie decides (white or black, anything
 * else is white). The `<html>` element carries `theme-white` or `theme-black`.
 */

export type Theme = "white" | "black";

export const DEFAULT_THEME: Theme = "white";
export const THEME_COOKIE = "theme";
/** Local cache key mirroring the cookie (docs/product.md §3, local stored keys). */
export const THEME_STORAGE_KEY = "theme";
export const THEME_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Ant Design `cssVar.key` per theme: the extracted stylesheet holds one token block for each. */
export const ANTD_CSS_VAR_KEY: Readonly<Record<Theme, string>> = { white: "mer-light", black: "mer-dark" };

export function isTheme(value: unknown): value is Theme {
  return value === "white" || value === "black";
}

/** A stored value as a theme: invalid or missing values become white. */
export function parseThemeCookie(value: string | null | undefined): Theme {
  return isTheme(value) ? value : DEFAULT_THEME;
}

/** The `appTheme` query value as a forced theme, or undefined when it forces nothing. */
export function parseAppTheme(value: string | null | undefined): Theme | undefined {
  if (value === "dark") return "black";
  if (value === "standard") return "white";
  return undefined;
}

/** Query beats cookie beats default. */
export function resolveTheme(inputs: { appTheme?: string | null; cookie?: string | null }): Theme {
  return parseAppTheme(inputs.appTheme) ?? parseThemeCookie(inputs.cookie);
}

/** Class on `<html>` for a theme. */
export function themeClassName(theme: Theme): string {
  return `theme-${theme}`;
}
