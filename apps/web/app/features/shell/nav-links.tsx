import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import type { NavItem } from "./nav-items.ts";
import { ShellLink } from "./shell-link.tsx";
import type { NavKey } from "./types.ts";

/**
 * The sections as list items of links, the current one marked (the simulation switch is
 * a mode, never the current page): the header's bar and the phone menu.
 */
export function NavLinks(props: {
  items: readonly NavItem[];
  locale: string;
  active: NavKey | undefined;
  onNavigate: (href: string, key?: NavKey) => void;
}) {
  const { t } = useTranslation("shell");
  return props.items.map((item) => (
    <li key={item.key}>
      <ShellLink
        href={localizePath(props.locale, item.path)}
        navKey={item.key}
        onNavigate={props.onNavigate}
        aria-current={props.active === item.key && item.key !== "simulation" ? "page" : undefined}
      >
        {t(item.label)}
      </ShellLink>
    </li>
  ));
}
