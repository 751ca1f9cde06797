import { getLocale } from "@meridian/contracts/locales";
import { createRoot } from "react-dom/client";
import type { NavKey, ShellUser } from "../app/features/shell/types.ts";
import { isTheme, parseAppTheme, type Theme } from "../app/theme/theme.ts";
import { EmbeddedShell, type ShellTargets, shellRootAttributes } from "./embedded-shell.tsx";
import { loadShellI18n } from "./i18n.ts";

/** What a host passes to `MeridianShell.mount` and `update` (docs/product.md §2, "Shared page shell"). */
export interface EmbedProps {
  /** Site locale code (`en`, `ar`, `zh-CN`, ...); unknown codes show English. Default `en`. */
  locale?: string;
  /** `white` or `black` (`standard`/`dark` are accepted too). Default `white`. */
  theme?: string;
  /** The logged-in visitor, or null/undefined for the login and sign-up buttons. */
  user?: ShellUser | null;
  /** Path of the host page within the site, to mark the active section. */
  currentPath?: string;
  /** A shell link was clicked (href is a site path). Default: go to that page of the site. */
  onNavigate?: (href: string, key?: NavKey) => void;
  /** The theme toggle was used; the shell has already switched. */
  onThemeChange?: (theme: Theme) => void;
  /** The language picker was used; the shell has already re-rendered in that language. */
  onLanguageChange?: (locale: string) => void;
  /** Shows "Log out" in the user menu when given. */
  onLogout?: () => void;
}

export interface ShellHandle {
  /** Merges new props and re-renders (a new locale loads its translations first). */
  update(props: EmbedProps): void;
  unmount(): void;
  /** Settles once the latest render is on screen. */
  readonly rendered: Promise<void>;
}

function toTheme(value: string | undefined): Theme {
  if (isTheme(value)) return value;
  return parseAppTheme(value) ?? "white";
}

/** Where the bundle came from: shell links lead there by default. */
const SITE_ORIGIN = new URL(import.meta.url).origin;

/**
 * Mounts the header into `targets.header` and the footer into `targets.footer` (either
 * may be left out). The language picker and the theme toggle switch the shell at once
 * and then tell the host through the callbacks.
 */
export function mount(targets: ShellTargets, initial: EmbedProps = {}): ShellHandle {
  if (!targets.header && !targets.footer)
    throw new Error("MeridianShell.mount: pass a header or a footer element");
  let props: EmbedProps = { ...initial };
  let dead = false;
  let generation = 0;
  const overlay = document.createElement("div");
  overlay.setAttribute("data-meridian-shell", "overlay");
  document.body.appendChild(overlay);
  const root = createRoot(overlay);
  const year = new Date().getFullYear();

  const handleLanguageChange = (next: string) => {
    setProps({ locale: next });
    props.onLanguageChange?.(getLocale(next).code);
  };
  const handleThemeChange = (next: Theme) => {
    setProps({ theme: next });
    props.onThemeChange?.(next);
  };
  const handleNavigate = (href: string, key?: NavKey) => {
    if (props.onNavigate) props.onNavigate(href, key);
    else window.location.assign(new URL(href, SITE_ORIGIN).href);
  };

  const render = async (): Promise<void> => {
    const mine = ++generation;
    const locale = getLocale(props.locale).code;
    const theme = toTheme(props.theme);
    const i18n = await loadShellI18n(locale);
    // A newer update won the race, or the host unmounted meanwhile.
    if (dead || mine !== generation) return;
    const attrs = shellRootAttributes(locale, theme);
    overlay.className = attrs.className;
    overlay.dir = attrs.dir;
    overlay.lang = attrs.lang;
    root.render(
      <EmbeddedShell
        i18n={i18n}
        targets={targets}
        overlay={overlay}
        year={year}
        locale={locale}
        theme={theme}
        user={props.user ?? undefined}
        currentPath={props.currentPath}
        onNavigate={handleNavigate}
        onThemeChange={handleThemeChange}
        onLanguageChange={handleLanguageChange}
        onLogout={props.onLogout}
      />,
    );
  };

  const handle = { rendered: Promise.resolve() } as { rendered: Promise<void> } & ShellHandle;
  const setProps = (next: EmbedProps) => {
    if (dead) return;
    props = { ...props, ...next };
    handle.rendered = render().catch((error: unknown) => {
      console.error("MeridianShell: could not load the shell translations", error);
    });
  };
  handle.update = setProps;
  handle.unmount = () => {
    if (dead) return;
    dead = true;
    root.unmount();
    overlay.remove();
  };
  setProps({});
  return handle;
}
