import type { CSSProperties } from "react";
import accountAntdHref from "../styles/account-antd.generated.css?url";

/**
 * The login, sign-up and account routes' `links`: the antd components only they render
 * (Card, Form, Input, Tabs, Steps...), extracted by scripts/extract-antd-css.ts. Antd runs
 * with `zeroRuntime`, so without this sheet those forms would render unstyled; other pages
 * do not load it.
 */
export const accountLinks = () => [{ rel: "stylesheet", href: accountAntdHref }];

/** An account page's card: centred, at most `maxWidth` wide, 16 px from a phone's edges. */
export const accountCardStyle = (maxWidth: number): CSSProperties => ({
  maxWidth,
  margin: "32px auto",
  width: "calc(100% - 32px)",
});
