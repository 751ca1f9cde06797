import { GlobalOutlined, MoonOutlined, SunOutlined } from "@ant-design/icons";
import {
  CONTENT_PAGE_LOCALES,
  getLocale,
  isContentPath,
  localizePath,
  VISIBLE_LOCALES,
} from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { FIAT_CURRENCIES, useFiat } from "./fiat.tsx";
import { useIslandsPage } from "./islands.ts";
import { ShellLink } from "./shell-link.tsx";
import type { ShellProps } from "./types.ts";
import { UserMenu } from "./user-menu.tsx";

interface ControlProps {
  /** Distinguishes the header's controls from the phone menu's copies. */
  testIdPrefix?: string;
}

/*
 * The pickers are native <select>s: keyboard, screen reader and phone pickers come
 * for free, they work before hydration, and they keep antd's Select (about 30 KB gzip)
 * out of every page's first load.
 */

export function LanguagePicker({
  locale,
  currentPath,
  onLanguageChange,
  testIdPrefix = "",
}: Pick<ShellProps, "locale" | "currentPath" | "onLanguageChange"> & ControlProps) {
  const { t } = useTranslation("shell");
  const entry = getLocale(locale);
  // Content pages also offer the content-only languages (docs/content.md).
  const choices = currentPath && isContentPath(currentPath) ? CONTENT_PAGE_LOCALES : VISIBLE_LOCALES;
  // Without hydration the islands bundle navigates to the chosen option's path.
  const islands = useIslandsPage();
  return (
    <span className="shell-select shell-language">
      <GlobalOutlined aria-hidden className="shell-select-icon" />
      <select
        data-testid={`${testIdPrefix}language-picker`}
        aria-label={t("header.language")}
        value={entry.hidden && !entry.contentOnly ? "en" : entry.code}
        onChange={(event) => onLanguageChange(event.target.value)}
      >
        {choices.map((l) => (
          <option
            key={l.code}
            value={l.code}
            lang={l.htmlLang}
            data-path={islands ? localizePath(l.code, currentPath ?? "/") : undefined}
          >
            {l.displayName}
          </option>
        ))}
      </select>
    </span>
  );
}

export function FiatPicker({ testIdPrefix = "" }: ControlProps) {
  const { t } = useTranslation("shell");
  const { fiat, setFiat } = useFiat();
  return (
    <span className="shell-select shell-fiat">
      <select
        data-testid={`${testIdPrefix}fiat-picker`}
        aria-label={t("header.currency")}
        value={fiat}
        onChange={(event) => setFiat(event.target.value)}
      >
        {FIAT_CURRENCIES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </span>
  );
}

export function ThemeToggle({
  theme,
  onThemeChange,
  testIdPrefix = "",
}: Pick<ShellProps, "theme" | "onThemeChange"> & ControlProps) {
  const { t } = useTranslation("shell");
  const dark = theme === "black";
  const label = t(dark ? "header.themeToLight" : "header.themeToDark");
  return (
    <button
      type="button"
      className="shell-icon-button"
      data-testid={`${testIdPrefix}theme-toggle`}
      aria-label={label}
      title={label}
      onClick={() => onThemeChange(dark ? "white" : "black")}
    >
      {dark ? <SunOutlined aria-hidden /> : <MoonOutlined aria-hidden />}
    </button>
  );
}

export function AuthButtons({
  locale,
  user,
  onNavigate,
  onLogout,
  onSwitchBack,
}: Pick<ShellProps, "locale" | "user" | "onNavigate" | "onLogout" | "onSwitchBack">) {
  const { t } = useTranslation("shell");
  if (user)
    return (
      <UserMenu
        locale={locale}
        user={user}
        onNavigate={onNavigate}
        onLogout={onLogout}
        onSwitchBack={onSwitchBack}
      />
    );
  return (
    <div className="shell-auth">
      <ShellLink
        className="shell-button shell-button-ghost"
        href={localizePath(locale, "/login")}
        navKey="login"
        onNavigate={onNavigate}
      >
        {t("header.login")}
      </ShellLink>
      <ShellLink
        className="shell-button shell-button-primary"
        href={localizePath(locale, "/register")}
        navKey="register"
        onNavigate={onNavigate}
      >
        {t("header.register")}
      </ShellLink>
    </div>
  );
}
