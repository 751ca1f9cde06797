import type { Theme } from "../../theme/theme.ts";

/** Sections the shell links to; hosts may special-case one in `onNavigate`. */
export type NavKey =
  | "home"
  | "airdrops"
  | "apps"
  | "spot"
  | "futures"
  | "margin"
  | "simulation"
  | "fees"
  | "vip"
  | "assets"
  | "reserves"
  | "login"
  | "register"
  | "account"
  | "download";

/** The part of the logged-in user record the shell shows. */
export interface ShellUser {
  userId: string;
  nickName?: string;
  userName?: string;
  loginName?: string;
  /** True while the session is switched into a sub-account (user record `subAccount`). */
  subAccount?: boolean;
}

/**
 * What the header, footer and legal dialog receive (docs/product.md §2). No router and no
 * fetch inside: the embeddable bundle mounts the same components on other sites.
 */
export interface ShellProps {
  locale: string;
  theme: Theme;
  user?: ShellUser | undefined;
  /** Current path without the language prefix, to mark the active section. */
  currentPath?: string | undefined;
  /** Follow an internal link (already localised). `key` names the section when it is one. */
  onNavigate: (href: string, key?: NavKey) => void;
  onThemeChange: (theme: Theme) => void;
  onLanguageChange: (locale: string) => void;
  /** Log the visitor out (the host calls its account client, then reloads); without it the user menu has no logout. */
  onLogout?: (() => void) | undefined;
  /** Switch from a sub-account back to its master (the host calls its account client, then reloads). */
  onSwitchBack?: (() => void) | undefined;
}

export function displayUserName(user: ShellUser): string {
  return user.nickName || user.userName || user.loginName || user.userId;
}
