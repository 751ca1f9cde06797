import { getLocale } from "@meridian/contracts/locales";
import { ConfigProvider } from "antd";
import type { i18n as I18n } from "i18next";
import { lazy, Suspense, useState } from "react";
import { createPortal } from "react-dom";
import { Footer } from "../app/features/shell/footer.tsx";
import { Header } from "../app/features/shell/header.tsx";
import { ShellProviders } from "../app/features/shell/shell-providers.tsx";
import type { ShellProps } from "../app/features/shell/types.ts";
import { themeClassName } from "../app/theme/theme.ts";
import { SHELL_ROOT_CLASS } from "./scope-css.ts";

// Opened from the footer only: the Modal chunk loads on the first click.
const LegalDialog = lazy(() =>
  import("../app/features/shell/legal-dialog.tsx").then((m) => ({ default: m.LegalDialog })),
);

export interface ShellTargets {
  header?: Element | null | undefined;
  footer?: Element | null | undefined;
}

interface EmbeddedShellProps extends ShellProps {
  i18n: I18n;
  targets: ShellTargets;
  /** Where antd puts the legal dialog and the phone menu: an element of ours under <body>. */
  overlay: HTMLElement;
  year: number;
}

/** Attributes of every element the shell renders into: scope, theme and direction. */
export function shellRootAttributes(locale: string, theme: ShellProps["theme"]) {
  const entry = getLocale(locale);
  return {
    className: `${SHELL_ROOT_CLASS} ${themeClassName(theme)}`,
    dir: entry.dir,
    lang: entry.htmlLang,
    "data-locale": entry.code,
  };
}

/**
 * The site's header, footer and legal dialog for another site's page (docs/product.md §1):
 * the very components the app renders, under the same providers, portalled into the
 * host's elements.
 */
export function EmbeddedShell({ i18n, targets, overlay, year, ...props }: EmbeddedShellProps) {
  const [legalOpen, setLegalOpen] = useState(false);
  const [legalLoaded, setLegalLoaded] = useState(false);
  const attrs = shellRootAttributes(props.locale, props.theme);

  const openLegal = () => {
    setLegalLoaded(true);
    setLegalOpen(true);
  };

  return (
    <ShellProviders i18n={i18n} locale={props.locale} theme={props.theme}>
      <ConfigProvider getPopupContainer={() => overlay}>
        {targets.header
          ? createPortal(
              <div {...attrs} data-meridian-shell="header">
                <Header {...props} />
              </div>,
              targets.header,
            )
          : null}
        {targets.footer
          ? createPortal(
              <div {...attrs} data-meridian-shell="footer">
                <Footer
                  locale={props.locale}
                  onNavigate={props.onNavigate}
                  onOpenLegal={openLegal}
                  year={year}
                />
              </div>,
              targets.footer,
            )
          : null}
        {legalLoaded ? (
          <Suspense fallback={null}>
            <LegalDialog open={legalOpen} onClose={() => setLegalOpen(false)} />
          </Suspense>
        ) : null}
      </ConfigProvider>
    </ShellProviders>
  );
}
