import { MenuOutlined } from "@ant-design/icons";
import { localizePath } from "@meridian/contracts/locales";
import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthButtons, FiatPicker, LanguagePicker, ThemeToggle } from "./header-controls.tsx";
import { useIslandsPage } from "./islands.ts";
import { Logo } from "./logo.tsx";
import { activeNavKey, NAV_ITEMS } from "./nav-items.ts";
import { NavLinks } from "./nav-links.tsx";
import { ShellLink } from "./shell-link.tsx";
import type { ShellProps } from "./types.ts";

/** The bar leaves the wallet out: account holders reach it beside the account menu. */
const BAR_ITEMS = NAV_ITEMS.filter((item) => item.key !== "assets");

// The phone menu is only needed after a tap: keep the Drawer out of the first-load bundle.
const MobileMenu = lazy(() => import("./mobile-menu.tsx").then((m) => ({ default: m.MobileMenu })));

/**
 * True while `ref`'s content is wider than the element (the header's sections in a long
 * language, or beside a long account name): the header then fades the clipped end and
 * shows the menu button too, so every section stays one click away.
 */
function useOverflows(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof ResizeObserver === "undefined") return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const list = element.firstElementChild;
    if (list !== null) observer.observe(list);
    // A web font arriving widens the labels; when the bar is already at its widest,
    // no box changes size and the observer stays silent.
    document.fonts.addEventListener("loadingdone", measure);
    measure();
    return () => {
      observer.disconnect();
      document.fonts.removeEventListener("loadingdone", measure);
    };
  }, [ref]);
  return overflows;
}

/** Site header: logo, sections, language, fiat, theme, account; a Drawer menu on narrow screens. */
export function Header(props: ShellProps) {
  const { locale, currentPath, onNavigate } = props;
  const { t } = useTranslation("shell");
  const [menuOpen, setMenuOpen] = useState(false);
  const active = activeNavKey(currentPath);
  const nav = useRef<HTMLElement>(null);
  const navOverflows = useOverflows(nav);
  const islands = useIslandsPage();

  return (
    <header className="shell-header" data-nav-overflow={navOverflows ? "" : undefined}>
      <div className="shell-header-inner">
        <ShellLink
          className="shell-logo"
          href={localizePath(locale, "/")}
          navKey="home"
          onNavigate={onNavigate}
          aria-label={`${t("brand")} – ${t("nav.home")}`}
        >
          <Logo />
        </ShellLink>
        <nav ref={nav} className="shell-nav" aria-label={t("nav.label")}>
          <ul>
            <NavLinks items={BAR_ITEMS} locale={locale} active={active} onNavigate={onNavigate} />
          </ul>
        </nav>
        <div className="shell-actions">
          {/* the wallet is for account holders, as on Binance (visitors: the footer and the phone menu) */}
          {props.user ? (
            <ShellLink
              className="shell-assets-link"
              href={localizePath(locale, "/asset")}
              navKey="assets"
              onNavigate={onNavigate}
              aria-current={active === "assets" ? "page" : undefined}
            >
              {t("nav.assets")}
            </ShellLink>
          ) : null}
          <div className="shell-controls">
            <LanguagePicker
              locale={locale}
              currentPath={currentPath}
              onLanguageChange={props.onLanguageChange}
            />
            <FiatPicker />
            <ThemeToggle theme={props.theme} onThemeChange={props.onThemeChange} />
          </div>
          <AuthButtons
            locale={locale}
            user={props.user}
            onNavigate={onNavigate}
            onLogout={props.onLogout}
            onSwitchBack={props.onSwitchBack}
          />
          <button
            type="button"
            className="shell-icon-button shell-menu-button"
            aria-label={t("nav.openMenu")}
            aria-expanded={menuOpen}
            aria-haspopup="dialog"
            data-testid="menu-button"
            aria-controls={islands ? "shell-menu" : undefined}
            onClick={() => setMenuOpen(true)}
          >
            <MenuOutlined aria-hidden />
          </button>
        </div>
      </div>
      {menuOpen ? (
        <Suspense fallback={null}>
          <MobileMenu {...props} open={menuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      ) : null}
    </header>
  );
}
