import { theme as antdTheme, type ThemeConfig } from "antd";
import { FONT_FAMILY } from "./font-stack.ts";
import { ANTD_CSS_VAR_KEY, type Theme } from "./theme.ts";

/** Brand accent: exchange yellow, with dark text on it for contrast. */
export const BRAND_YELLOW = "#f0b90b";
const ON_BRAND = "#181a20";

/**
 * The Ant Design theme for one site theme, without the runtime switch: the extraction
 * script renders both with `zeroRuntime: false` to write the stylesheet, and the app
 * renders them with `zeroRuntime: true` so no style is generated in the browser.
 *
 * NOTE: any change here must be followed by `npm run styles:antd -w @meridian/web`
 * (the build runs it too), or the extracted token blocks drift from the runtime theme.
 */
export function antdThemeConfig(theme: Theme): ThemeConfig {
  const dark = theme === "black";
  return {
    hashed: false,
    cssVar: { key: ANTD_CSS_VAR_KEY[theme] },
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: BRAND_YELLOW,
      colorLink: dark ? BRAND_YELLOW : "#8a5a00",
      colorInfo: dark ? "#3b82f6" : "#1d4ed8",
      colorSuccess: "#0ecb81",
      colorError: "#f6465d",
      colorBgBase: dark ? "#0b0e11" : "#ffffff",
      colorTextBase: dark ? "#eaecef" : "#1e2329",
      colorBgElevated: dark ? "#1e2329" : "#ffffff",
      borderRadius: 8,
      fontFamily: FONT_FAMILY,
    },
    components: {
      Button: { primaryColor: ON_BRAND, primaryShadow: "none", defaultShadow: "none", dangerShadow: "none" },
    },
  };
}
