import { localizePath } from "@meridian/contracts/locales";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ShellLink } from "./shell-link.tsx";
import { displayUserName, type NavKey, type ShellProps, type ShellUser } from "./types.ts";

interface UserMenuProps extends Pick<ShellProps, "locale" | "onNavigate" | "onLogout" | "onSwitchBack"> {
  user: ShellUser;
}

/*
 * A native <details> disclosure: it opens before hydration and needs no antd Dropdown in
 * the first-load bundle. Outside clicks and Escape close it once hydrated.
 */

/** The logged-in visitor's menu: account overview, assets, security, API keys, sub-accounts and, when the host handles it, log out. */
export function UserMenu({ locale, user, onNavigate, onLogout, onSwitchBack }: UserMenuProps) {
  const { t } = useTranslation("shell");
  const ref = useRef<HTMLDetailsElement>(null);
  const name = displayUserName(user);

  useEffect(() => {
    const close = (event: Event) => {
      const el = ref.current;
      if (!el?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !el.contains(event.target as Node)) {
        el.open = false;
      }
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  const navigate = (href: string, key?: NavKey) => {
    if (ref.current) ref.current.open = false;
    onNavigate(href, key);
  };

  return (
    <details className="shell-user-menu" ref={ref}>
      <summary
        className="shell-user"
        data-testid="user-name"
        aria-label={t("header.account", { name })}
        title={name}
      >
        <span className="shell-user-avatar" aria-hidden>
          {name.slice(0, 1).toUpperCase()}
        </span>
        <span className="shell-user-name">{name}</span>
        {user.subAccount ? (
          <span className="shell-user-sub" data-testid="in-sub-account">
            {t("header.inSub")}
          </span>
        ) : null}
      </summary>
      <ul className="shell-user-menu-list">
        <li>
          <ShellLink href={localizePath(locale, "/account/overview")} navKey="account" onNavigate={navigate}>
            {t("header.overview")}
          </ShellLink>
        </li>
        <li>
          <ShellLink href={localizePath(locale, "/asset")} navKey="assets" onNavigate={navigate}>
            {t("nav.assets")}
          </ShellLink>
        </li>
        <li>
          <ShellLink href={localizePath(locale, "/account/security")} navKey="account" onNavigate={navigate}>
            {t("header.security")}
          </ShellLink>
        </li>
        <li>
          <ShellLink href={localizePath(locale, "/account/newapi")} navKey="account" onNavigate={navigate}>
            {t("header.apiKeys")}
          </ShellLink>
        </li>
        {user.subAccount ? (
          onSwitchBack ? (
            <li>
              <button
                type="button"
                data-testid="switch-back"
                onClick={() => {
                  if (ref.current) ref.current.open = false;
                  onSwitchBack();
                }}
              >
                {t("header.switchBack")}
              </button>
            </li>
          ) : null
        ) : (
          <li>
            <ShellLink
              href={localizePath(locale, "/subaccount/manage")}
              navKey="account"
              onNavigate={navigate}
            >
              {t("header.subAccounts")}
            </ShellLink>
          </li>
        )}
        {onLogout ? (
          <li>
            <button
              type="button"
              data-testid="logout"
              onClick={() => {
                if (ref.current) ref.current.open = false;
                onLogout();
              }}
            >
              {t("header.logout")}
            </button>
          </li>
        ) : null}
      </ul>
    </details>
  );
}
