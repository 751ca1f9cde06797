import { createContext } from "react";
import type { Theme } from "../../theme/theme.ts";

/**
 * What Ant Design needs from the shell (language, theme, CSP nonce, where its extracted
 * stylesheet lives), handed down by ShellProviders without importing antd itself. Only
 * `AntdConfig` (antd-config.tsx) reads it, and only pages or dialogs that render antd
 * components mount that: the public content pages never load antd at all.
 */
export interface AntdSettings {
  locale: string;
  theme: Theme;
  /** CSP nonce for the `<style>` tags antd still writes at runtime (token variables). */
  nonce?: string | undefined;
  /**
   * URL of the extracted antd stylesheet (app/styles/antd.generated.css). When given,
   * `AntdConfig` renders it as a React stylesheet resource (`precedence`), so it loads
   * with the first antd page or dialog and never blocks pages without antd. The embed
   * leaves it out: its loader links its own stylesheet.
   */
  stylesheet?: string | undefined;
}

export const AntdSettingsContext = createContext<AntdSettings>({ locale: "en", theme: "white" });

/** A route module's `handle`: `{ antd: false }` says the page renders no antd component. */
export interface AntdRouteHandle {
  antd?: boolean;
}

/** Handle of the routes that render no antd component on their own (dialogs bring their own provider). */
export const NO_ANTD_HANDLE = { antd: false } as const satisfies AntdRouteHandle;

/** Whether the matched page renders antd: yes unless one of its routes says otherwise. */
export function routeUsesAntd(matches: readonly { handle?: unknown }[]): boolean {
  return !matches.some((m) => (m.handle as AntdRouteHandle | undefined)?.antd === false);
}
