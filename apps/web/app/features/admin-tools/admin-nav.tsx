import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";

const LINKS = [
  ["airdrops", "/admin/airdrops"],
  ["tgApps", "/admin/tg-apps"],
  ["securityReports", "/admin/security-reports"],
  ["pageMeta", "/admin/page-meta"],
] as const;

/** Links between the administration pages; the current one is marked for assistive tech. */
export function AdminNav({ locale, current }: { locale: string; current: (typeof LINKS)[number][0] }) {
  const { t } = useTranslation("adminTools");
  return (
    <nav className="at-nav" aria-label={t("nav.label")}>
      {LINKS.map(([key, path]) => (
        <a key={key} href={localizePath(locale, path)} aria-current={key === current ? "page" : undefined}>
          {t(`nav.${key}`)}
        </a>
      ))}
    </nav>
  );
}

/** What a non-administrator sees (401 or 403 from the admin API). */
export function AdminForbidden({ locale, title, path }: { locale: string; title: string; path: string }) {
  const { t } = useTranslation("adminTools");
  const login = `${localizePath(locale, "/login")}?redirect=${encodeURIComponent(localizePath(locale, path))}`;
  return (
    <section className="at-page">
      <h1>{title}</h1>
      <p role="alert">{t("forbidden")}</p>
      <p>
        <a href={login}>{t("logIn")}</a>
      </p>
    </section>
  );
}

/** Date and time in UTC, the same on the server render and in the browser. */
export function formatUtc(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: "UTC",
  }).format(ms);
}
