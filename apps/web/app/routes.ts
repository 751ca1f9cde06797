import { index, type RouteConfig, route } from "@react-router/dev/routes";

/**
 * Every page lives under the optional language prefix `:lang?` (docs/product.md §2), so
 * `/airdrops` and `/ja/airdrops` reach the same module. The layout route checks the
 * prefix against the locale table: unknown prefixes answer 404, aliases redirect.
 *
 * HOW TO ADD A PAGE: append one line to the children below, with a path relative to the
 * prefix, and keep the catch-all last:
 *
 *   route("airdrops", "routes/airdrops.tsx"),
 *   route("telegram-apps/:app", "routes/tg-app-detail.tsx"),
 *
 * In the route module, read the locale with `localeFromParams(params)`
 * (app/i18n/locale-routing.ts), load translations with
 * `loadI18n(locale, ["<namespace>"])` (app/i18n/resources.server.ts) and return them as
 * `i18n` from the loader; the root adds them to the page's i18next instance. Build links
 * with `localizePath(locale, "/path")` from @meridian/contracts/locales.
 */
export default [
  route(":lang?", "routes/locale-layout.tsx", [
    index("routes/home.tsx"),
    route("login", "routes/login.tsx"),
    route("register", "routes/register.tsx"),
    route("account/overview", "routes/account.overview.tsx"),
    route("account/security", "routes/account.security.tsx"),
    route("account/identity", "routes/account.identity.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
    route("qr-login", "routes/qr-login.tsx"),
    route("third-login/:provider", "routes/third-login.tsx"),
    route("modifyverification", "routes/modifyverification.tsx"),
    route("subaccount/setting/antiphishing", "routes/subaccount-setting-antiphishing.tsx"),
    route("subaccount/setting/devices", "routes/subaccount-setting-devices.tsx"),
    route("subaccount/setting/history", "routes/subaccount-setting-history.tsx"),
    route("subaccount/setting/api", "routes/subaccount-setting-api.tsx"),
    route("subaccount/manage", "routes/subaccount.manage.tsx"),
    route("account/newapi", "routes/account.newapi.tsx"),
    route("airdrops", "routes/airdrops.tsx"),
    route("airdrops/list", "routes/airdrops-list.tsx"),
    route("airdrops/feed.xml", "routes/feed-airdrops.tsx"),
    route("airdrops/news/:slug", "routes/airdrops.news.$slug.tsx"),
    route("airdrops/:slug", "routes/airdrops-detail.tsx"),
    route("admin/airdrops", "routes/airdrops-admin.tsx"),
    route("admin/tg-apps", "routes/admin.tg-apps.tsx"),
    route("admin/security-reports", "routes/admin.security-reports.tsx"),
    route("admin/page-meta", "routes/admin.page-meta.tsx"),
    route("telegram-apps", "routes/telegram-apps.tsx"),
    route("telegram-apps/:app", "routes/telegram-apps.$app.tsx"),
    route("telegram-apps/:app/articles", "routes/telegram-apps.$app.articles.tsx"),
    route("analytics", "routes/analytics.tsx"),
    route("spot/:symbol", "routes/spot.$symbol.tsx"),
    route("spot", "routes/default-page.tsx", { id: "routes/default-spot" }),
    route("futures", "routes/default-page.tsx", { id: "routes/default-futures" }),
    route("futures/usdt", "routes/default-page.tsx", { id: "routes/default-futures-usdt" }),
    route("futures/coin", "routes/default-page.tsx", { id: "routes/default-futures-coin" }),
    route("margin", "routes/default-page.tsx", { id: "routes/default-margin" }),
    route("trade-spot", "routes/trade-spot.tsx", { id: "routes/trade-spot-query" }),
    route("trade-spot/:symbol", "routes/trade-spot.tsx"),
    route("record/exchange", "routes/record-exchange.tsx"),
    route("asset", "routes/asset.tsx"),
    route("asset/spot", "routes/asset-spot.tsx"),
    route("asset/futures", "routes/asset-futures.tsx"),
    route("fee", "routes/fee.tsx"),
    route("vip/vipIntroduce", "routes/vip-introduce.tsx"),
    route("vip/detail", "routes/vip-detail.tsx"),
    route("futures/usdt/:symbol", "routes/futures.$symbol.tsx"),
    route("futures/coin/:symbol", "routes/futures-coin.$symbol.tsx"),
    route("trade-swap", "routes/trade-swap.tsx", { id: "routes/trade-swap-query" }),
    route("trade-swap/:symbol", "routes/trade-swap.tsx"),
    route("trade-info", "routes/trade-info.tsx", { id: "routes/trade-info-query" }),
    route("trade-info/:symbol", "routes/trade-info.tsx"),
    route("trade-asset", "routes/trade-asset.tsx"),
    route("trade-asset-order", "routes/trade-asset-order.tsx"),
    route("transac", "routes/transac.tsx"),
    route("order/mcp", "routes/order-mcp.tsx"),
    route("record/mcp", "routes/record-mcp.tsx"),
    route("download", "routes/download.tsx"),
    route("proof-of-reserves", "routes/proof-of-reserves.tsx"),
    route("trade-margin", "routes/trade-margin.tsx", { id: "routes/trade-margin-default" }),
    route("trade-margin/:symbol", "routes/trade-margin.tsx"),
    route("order/marginOrderInfo", "routes/order-margin.tsx"),
    route("record/margin", "routes/record-margin.tsx"),
    route("asset/margin", "routes/asset-margin.tsx"),
    route("protection-fund", "routes/protection-fund.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  // Search-engine files live at the root only, outside the language prefix.
  route("sitemap.xml", "routes/sitemap-index.tsx"),
  route("sitemaps/:file", "routes/sitemap-file.tsx"),
  route("robots.txt", "routes/robots.tsx"),
] satisfies RouteConfig;
