import { isApiError } from "@meridian/client";
import type { UserRecord } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Card } from "antd";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAccount } from "../../../api/use-account.ts";
import { accountCardStyle } from "../../../ui/account-styles.ts";
import { LoginFirst } from "../account-pages.tsx";

/** The security pages, in the order the navigation lists them (paths from the spec, section 2). */
export const SECURITY_PAGES = [
  { key: "security", path: "/account/security" },
  { key: "antiPhishing", path: "/subaccount/setting/antiphishing" },
  { key: "verification", path: "/modifyverification" },
  { key: "devices", path: "/subaccount/setting/devices" },
  { key: "history", path: "/subaccount/setting/history" },
  { key: "api", path: "/subaccount/setting/api" },
] as const;

export type SecurityPageKey = (typeof SECURITY_PAGES)[number]["key"];

/** Links between the security pages: a wrapping row, so a phone shows them all without a menu. */
export function SecurityNav({ locale, current }: { locale: string; current: SecurityPageKey }) {
  const { t } = useTranslation("account");
  return (
    <nav aria-label={t("settings.nav")} className="security-nav" data-testid="security-nav">
      {SECURITY_PAGES.map((p) => (
        <a
          key={p.key}
          href={localizePath(locale, p.path)}
          aria-current={p.key === current ? "page" : undefined}
          data-testid={`security-nav-${p.key}`}
        >
          {t(`settings.pages.${p.key}`)}
        </a>
      ))}
    </nav>
  );
}

/**
 * A security page: the navigation, then a card with the page's content once the session
 * is known (the login prompt when there is none).
 */
export function SecurityPage({
  locale,
  page,
  maxWidth = 720,
  children,
}: {
  locale: string;
  page: SecurityPageKey;
  maxWidth?: number;
  children: (user: UserRecord, reload: () => Promise<void>) => ReactNode;
}) {
  const { t } = useTranslation("account");
  const { user, loading, reload } = useAccount();
  const path = SECURITY_PAGES.find((p) => p.key === page)?.path ?? "/account/security";
  return (
    <div style={accountCardStyle(maxWidth)}>
      <SecurityNav locale={locale} current={page} />
      {loading ? (
        <Card title={t(`settings.pages.${page}`)} loading data-testid="security-page-loading" />
      ) : user === undefined ? (
        <LoginFirst locale={locale} path={path} />
      ) : (
        <Card title={t(`settings.pages.${page}`)} data-testid={`security-page-${page}`}>
          {children(user, reload)}
        </Card>
      )}
    </div>
  );
}

/** An API failure in the page's language: the code's own text when we have one, else the server's. */
export function failureText(err: unknown, t: TFunction<"account">): string {
  if (isApiError(err)) return t(`errors.${err.code}`, { defaultValue: err.msg });
  return err instanceof Error ? err.message : String(err);
}

/** `2026-11-27 11:40` in the reader's locale and time zone. */
export function formatWhen(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(ms);
}
