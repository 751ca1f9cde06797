import { CloseOutlined } from "@ant-design/icons";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { DownloadBar } from "./download-bar.tsx";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { useIslandsPage } from "./islands.ts";
import { LegalSections } from "./legal-sections.tsx";
import { MenuBody } from "./menu-body.tsx";
import type { ShellProps } from "./types.ts";

// Opened from the footer only: loaded on demand to keep Modal out of the first-load bundle.
const LegalDialog = lazy(() => import("./legal-dialog.tsx").then((m) => ({ default: m.LegalDialog })));

interface SiteShellProps extends ShellProps {
  children: ReactNode;
  year: number;
}

/** Download bar, header, page, footer and legal dialog: the frame of every page. */
export function SiteShell({ children, year, ...props }: SiteShellProps) {
  const { t } = useTranslation("shell");
  const [legalOpen, setLegalOpen] = useState(false);
  const [legalLoaded, setLegalLoaded] = useState(false);
  const islands = useIslandsPage();

  const openLegal = () => {
    setLegalLoaded(true);
    setLegalOpen(true);
  };

  return (
    <div className="shell">
      <a className="shell-skip-link" href="#main">
        {t("skipToContent")}
      </a>
      <DownloadBar locale={props.locale} onNavigate={props.onNavigate} />
      <Header {...props} />
      {islands ? (
        // A page without hydration: the phone menu in a native dialog the islands bundle opens
        // (outside the header, whose narrow-screen rules hide some of its controls).
        <dialog id="shell-menu" className="shell-sheet shell-drawer" aria-labelledby="shell-menu-title">
          <div className="shell-sheet-head">
            <button type="button" className="shell-icon-button" data-close aria-label={t("legal.close")}>
              <CloseOutlined aria-hidden />
            </button>
            <h2 id="shell-menu-title">{t("nav.menu")}</h2>
          </div>
          {/* Inert until first opened (the island moves it in), as antd's Drawer mounts on open:
              the account menu and pickers are in the document once, not twice. */}
          <div className="shell-sheet-body">
            <template data-menu-body>
              <MenuBody {...props} />
            </template>
          </div>
        </dialog>
      ) : null}
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
      <Footer locale={props.locale} onNavigate={props.onNavigate} onOpenLegal={openLegal} year={year} />
      {islands ? (
        // A page without hydration: the notice in a native dialog the islands bundle opens.
        <dialog
          id="shell-legal"
          className="shell-dialog shell-legal"
          aria-labelledby="shell-legal-title"
          data-testid="legal-dialog"
        >
          <div className="shell-dialog-body">
            <h2 id="shell-legal-title">{t("legal.title")}</h2>
            <LegalSections />
          </div>
          <div className="shell-dialog-foot">
            <button
              type="button"
              className="shell-button shell-button-primary"
              data-close
              data-testid="legal-dialog-close"
            >
              {t("legal.close")}
            </button>
          </div>
        </dialog>
      ) : legalLoaded ? (
        <Suspense fallback={null}>
          <LegalDialog open={legalOpen} onClose={() => setLegalOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
