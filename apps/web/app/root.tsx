import islandsHref from "virtual:meridian/islands";
import {
  getLocale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE_SECONDS,
  localizePath,
  parseLocalePath,
  resolveLocale,
} from "@meridian/contracts/locales";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigate,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { ReauthGate } from "./features/account/reauth-gate.tsx";
import { useImageDomain } from "./features/image-domain/use-image-domain.ts";
import { canonicalQueryOfMatches, contentLanguagesOfMatches } from "./features/seo/canonical.ts";
import { hreflangLocalesFor } from "./features/seo/seo.ts";
import { AntdGate } from "./features/shell/antd-gate.tsx";
import { preloadAntd } from "./features/shell/antd-preload.ts";
import { routeUsesAntd } from "./features/shell/antd-settings.ts";
import { DOWNLOAD_BAR_BOOT_SCRIPT } from "./features/shell/download-bar.tsx";
import { IslandsPageContext, routeHydrates } from "./features/shell/islands.ts";
import { NotFound } from "./features/shell/not-found.tsx";
import {
  announceHydrated,
  DEFERRED_MODULE_TYPE,
  PAINT_FIRST_BOOT_SCRIPT,
} from "./features/shell/paint-first.ts";
import { loadShellUser } from "./features/shell/session.server.ts";
import { ShellProviders } from "./features/shell/shell-providers.tsx";
import { markSimulationMode } from "./features/shell/simulation.ts";
import { SiteShell } from "./features/shell/site-shell.tsx";
import type { NavKey } from "./features/shell/types.ts";
import { useTracker } from "./features/tracking/use-tracker.ts";
import { addBundles, createI18n, type I18nPayload, SHELL_NAMESPACES } from "./i18n/i18n.ts";
import { loadLocaleModules } from "./i18n/locale-modules.ts";
import { loadI18n } from "./i18n/resources.server.ts";
import { readCookie, writeCookie } from "./lib/cookies.ts";
import { readServerContext } from "./lib/server-context.server.ts";
import { SimulationProvider } from "./lib/simulation-provider.tsx";
import antdStylesHref from "./styles/antd.generated.css?url";
import appStylesHref from "./styles/app.css?url";
import { fontPreloads } from "./theme/font-preload.ts";
import {
  resolveTheme,
  THEME_COOKIE,
  THEME_COOKIE_MAX_AGE_SECONDS,
  THEME_STORAGE_KEY,
  type Theme,
  themeClassName,
} from "./theme/theme.ts";

// antd's stylesheet is not among them: AntdConfig renders it on pages and dialogs that use antd.
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // The site as an installable app (/download; public/manifest.webmanifest).
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const cookieHeader = request.headers.get("cookie");
  // Unknown prefixes 404 inside the shell; the 404 then speaks the visitor's language.
  const { locale } = resolveLocale({
    pathname: url.pathname,
    query: url.searchParams.get("locale"),
    cookie: readCookie(cookieHeader, LOCALE_COOKIE),
    acceptLanguage: request.headers.get("accept-language"),
  });
  const theme = resolveTheme({
    appTheme: url.searchParams.get("appTheme"),
    cookie: readCookie(cookieHeader, THEME_COOKIE),
  });
  const server = readServerContext(context);
  const [user] = await Promise.all([
    loadShellUser(server, getLocale(locale).languageKey, cookieHeader),
    loadLocaleModules(locale),
  ]);
  return {
    locale,
    theme,
    user,
    i18n: loadI18n(locale, SHELL_NAMESPACES),
    nonce: server?.nonce,
    origin: server?.origin ?? url.origin,
    year: new Date().getUTCFullYear(),
  };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const data = await serverLoader();
  // A language change: fetch its antd/dayjs data before it renders, so nothing flashes
  // English (AntdConfig would otherwise suspend until it arrives).
  if (getLocale(data.locale).code !== document.documentElement.dataset.locale) {
    const { antdLocaleReady } = await import("./i18n/locale-modules.ts");
    await antdLocaleReady(data.locale);
  }
  return data;
}

/** Vary on what the root loader reads, for any cache in front of the site. */
export const headers: Route.HeadersFunction = () => ({ Vary: "Cookie, Accept-Language" });

type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * Session load on app start (docs/product.md §4): user info, cached user id (cleared and
 * "get user info error" logged on failure), request signing. The account client loads
 * after hydration so the API client stays out of the first-load bundle.
 */
function loadClientSession(): void {
  void import("./api/account-client.ts").then(({ accountClient }) => accountClient().loadSession());
}

function routeI18nPayloads(matches: ReturnType<typeof useMatches>): I18nPayload[] {
  const out: I18nPayload[] = [];
  for (const m of matches) {
    const data = m.loaderData as { i18n?: I18nPayload } | undefined;
    if (data?.i18n && m.id !== "root") out.push(data.i18n);
  }
  return out;
}

function useThemeState(serverTheme: Theme): [Theme, (t: Theme) => void] {
  const [chosen, setChosen] = useState<Theme | null>(null);
  const change = (next: Theme) => {
    setChosen(next);
    writeCookie(THEME_COOKIE, next, THEME_COOKIE_MAX_AGE_SECONDS);
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // The cookie alone is enough for the server to render the right theme.
    }
  };
  return [chosen ?? serverTheme, change];
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const locale = data?.locale ?? "en";
  const entry = getLocale(locale);
  const [theme, setTheme] = useThemeState(data?.theme ?? "white");
  const navigate = useNavigate();
  const location = useLocation();
  const matches = useMatches();
  // Pages whose routes say they render no antd component skip antd's code and stylesheet.
  const usesAntd = routeUsesAntd(matches);
  // Pages whose routes say `hydrate: false` load the islands bundle instead of the app,
  // when the server renders them; a client-side navigation into one stays in the app.
  const islandsPage = import.meta.env.SSR && !routeHydrates(matches);

  const rootI18n = data?.i18n ?? { lng: entry.htmlLang, bundles: {} };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new instance only when the language changes; bundles are added below.
  const i18n = useMemo(() => createI18n(rootI18n), [rootI18n.lng]);
  addBundles(i18n, rootI18n);
  for (const payload of routeI18nPayloads(matches)) addBundles(i18n, payload);

  useTracker(data?.user?.userId);
  useImageDomain();
  useEffect(loadClientSession, []);
  // The layout's effects run after the page's: hydration has committed.
  useEffect(announceHydrated, []);

  const { rest } = parseLocalePath(location.pathname);
  // A route's own canonical parameters (a list's tab and page), never its search terms.
  const query = canonicalQueryOfMatches(matches);
  // Content pages list only the languages their body is written in (docs/content.md).
  const written = contentLanguagesOfMatches(matches);
  const hreflangs = hreflangLocalesFor(rest, written);

  const handleNavigate = (href: string, key?: NavKey) => {
    if (key === "simulation") markSimulationMode();
    navigate(href);
  };

  const handleLogout = () => {
    void import("./api/account-client.ts")
      .then(({ accountClient }) => accountClient().logout())
      .finally(() => window.location.reload());
  };

  const handleSwitchBack = () => {
    void import("./api/subaccounts.ts")
      .then(({ switchBack }) => switchBack())
      .finally(() => window.location.reload());
  };

  const handleLanguageChange = (next: string) => {
    writeCookie(LOCALE_COOKIE, next, LOCALE_COOKIE_MAX_AGE_SECONDS);
    const params = new URLSearchParams(location.search);
    params.set("locale", next);
    navigate(`${localizePath(next, rest)}?${params.toString()}${location.hash}`, {
      replace: true,
      preventScrollReset: true,
    });
  };

  const origin = data?.origin ?? "";
  // The document's CSP nonce: keep the first one, as later loader calls are other requests.
  const [nonce] = useState(data?.nonce);
  if (usesAntd) preloadAntd(locale, nonce);

  return (
    <html
      lang={entry.htmlLang}
      dir={entry.dir}
      className={themeClassName(theme)}
      data-locale={entry.code}
      data-antd={usesAntd ? "" : undefined}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === "black" ? "dark" : "light"} />
        <meta name="theme-color" content="#181a20" />
        <script nonce={nonce}>{DOWNLOAD_BAR_BOOT_SCRIPT}</script>
        <script nonce={nonce}>{PAINT_FIRST_BOOT_SCRIPT}</script>
        <Meta />
        <link
          rel="canonical"
          href={`${origin}${localizePath(entry.hidden && !entry.contentOnly ? "en" : entry.code, rest)}${query}`}
        />
        {hreflangs.map((l) => (
          <link
            key={l.code}
            rel="alternate"
            hrefLang={l.htmlLang}
            href={`${origin}${localizePath(l.code, rest)}${query}`}
          />
        ))}
        <link rel="alternate" hrefLang="x-default" href={`${origin}${rest}${query}`} />
        <Links nonce={nonce} />
        {fontPreloads(entry.code).map((href) => (
          <link key={href} rel="preload" href={href} as="font" type="font/woff2" crossOrigin="anonymous" />
        ))}
      </head>
      <body data-uid={islandsPage ? data?.user?.userId : undefined}>
        <IslandsPageContext value={islandsPage}>
          <ShellProviders
            i18n={i18n}
            nonce={nonce}
            locale={locale}
            theme={theme}
            antdStylesheet={antdStylesHref}
          >
            <SimulationProvider>
              <SiteShell
                locale={locale}
                theme={theme}
                user={data?.user}
                currentPath={rest}
                year={data?.year ?? new Date().getUTCFullYear()}
                onNavigate={handleNavigate}
                onThemeChange={setTheme}
                onLanguageChange={handleLanguageChange}
                onLogout={handleLogout}
                onSwitchBack={handleSwitchBack}
              >
                {usesAntd ? (
                  <AntdGate>
                    {children}
                    <ReauthGate />
                  </AntdGate>
                ) : (
                  <>
                    {children}
                    <ReauthGate withAntd />
                  </>
                )}
              </SiteShell>
            </SimulationProvider>
          </ShellProviders>
        </IslandsPageContext>
        {islandsPage ? (
          // No router, no React in the browser: the islands bundle, after the first paint
          // like the hydrated content pages' scripts (features/shell/paint-first.ts).
          <script type={DEFERRED_MODULE_TYPE} nonce={nonce} src={islandsHref} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<RootData>("root");
  const navigate = useNavigate();
  const locale = data?.locale ?? "en";
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFound locale={locale} onNavigate={(href) => navigate(href)} />;
  }
  return <ServerError />;
}

function ServerError() {
  const { t } = useTranslation("shell");
  return (
    <section className="not-found">
      <h1>{t("error.title")}</h1>
      <p>{t("error.body")}</p>
    </section>
  );
}

export function meta({ error, loaderData }: Route.MetaArgs) {
  if (!error) return [];
  const shell = loaderData?.i18n.bundles.shell as
    | { notFound?: { title?: string }; error?: { title?: string } }
    | undefined;
  const is404 = isRouteErrorResponse(error) && error.status === 404;
  const title = is404 ? (shell?.notFound?.title ?? "404 - Page not found") : (shell?.error?.title ?? "Error");
  return [{ title: `${title} | Meridian` }, { name: "robots", content: "noindex" }];
}
