import { getLocale, localizePath } from "@meridian/contracts/locales";
import { Drawer } from "antd";
import { useTranslation } from "react-i18next";
import { AntdConfig } from "./antd-config.tsx";
import { AuthButtons, FiatPicker, LanguagePicker, ThemeToggle } from "./header-controls.tsx";
import { activeNavKey, NAV_ITEMS } from "./nav-items.ts";
import { ShellLink } from "./shell-link.tsx";
import type { NavKey, ShellProps } from "./types.ts";

interface MobileMenuProps extends ShellProps {
  open: boolean;
  onClose: () => void;
}

/** The phone-width menu: every section plus the header's controls (with its own antd provider: pages may have none). */
export function MobileMenu({ open, onClose, ...props }: MobileMenuProps) {
  const { t } = useTranslation("shell");
  const rtl = getLocale(props.locale).dir === "rtl";
  const active = activeNavKey(props.currentPath);
  const navigate = (href: string, key?: NavKey) => {
    onClose();
    props.onNavigate(href, key);
  };

  return (
    <AntdConfig>
      <Drawer
        open={open}
        onClose={onClose}
        title={t("nav.menu")}
        placement={rtl ? "left" : "right"}
        size={320}
        rootClassName="shell-drawer"
      >
        <nav aria-label={t("nav.label")}>
          <ul className="shell-drawer-nav">
            {NAV_ITEMS.map((item) => (
              <li key={item.key}>
                <ShellLink
                  href={localizePath(props.locale, item.path)}
                  navKey={item.key}
                  onNavigate={navigate}
                  aria-current={active === item.key && item.key !== "simulation" ? "page" : undefined}
                >
                  {t(item.label)}
                </ShellLink>
              </li>
            ))}
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
          onNavigate={navigate}
          onLogout={props.onLogout}
          onSwitchBack={props.onSwitchBack}
        />
      </Drawer>
    </AntdConfig>
  );
}
