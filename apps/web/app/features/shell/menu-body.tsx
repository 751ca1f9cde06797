import { useTranslation } from "react-i18next";
import { AuthButtons, FiatPicker, LanguagePicker, ThemeToggle } from "./header-controls.tsx";
import { activeNavKey, NAV_ITEMS } from "./nav-items.ts";
import { NavLinks } from "./nav-links.tsx";
import type { NavKey, ShellProps } from "./types.ts";

/**
 * The phone menu's content: every section plus the header's controls. The hydrated app
 * shows it in an antd Drawer (mobile-menu.tsx); a page without hydration, in a native
 * `<dialog>` the islands bundle opens (header.tsx).
 */
export function MenuBody({
  onNavigate,
  ...props
}: Omit<ShellProps, "onNavigate"> & { onNavigate: (href: string, key?: NavKey) => void }) {
  const { t } = useTranslation("shell");
  const active = activeNavKey(props.currentPath);
  return (
    <>
      <nav aria-label={t("nav.label")}>
        <ul className="shell-drawer-nav">
          <NavLinks items={NAV_ITEMS} locale={props.locale} active={active} onNavigate={onNavigate} />
        </ul>
      </nav>
      <div className="shell-drawer-controls">
        <LanguagePicker
          locale={props.locale}
          currentPath={props.currentPath}
          onLanguageChange={props.onLanguageChange}
          testIdPrefix="menu-"
        />
        <FiatPicker testIdPrefix="menu-" />
        <ThemeToggle theme={props.theme} onThemeChange={props.onThemeChange} testIdPrefix="menu-" />
      </div>
      <AuthButtons
        locale={props.locale}
        user={props.user}
        onNavigate={onNavigate}
        onLogout={props.onLogout}
        onSwitchBack={props.onSwitchBack}
      />
    </>
  );
}
