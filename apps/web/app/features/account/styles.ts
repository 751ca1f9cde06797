import accountAntdHref from "../../styles/account-antd.generated.css?url";

/**
 * The login, sign-up and account routes' `links`: the antd components only they render
 * (Card, Form, Input, Tabs, Steps...), extracted by scripts/extract-antd-css.ts. Antd runs
 * with `zeroRuntime`, so without this sheet those forms would render unstyled; other pages
 * do not load it.
 */
export const accountLinks = () => [{ rel: "stylesheet", href: accountAntdHref }];
