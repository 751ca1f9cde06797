import { lazy, type ReactNode, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { DownloadBar } from "./download-bar.tsx";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
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
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
      <Footer locale={props.locale} onNavigate={props.onNavigate} onOpenLegal={openLegal} year={year} />
      {legalLoaded ? (
        <Suspense fallback={null}>
          <LegalDialog open={legalOpen} onClose={() => setLegalOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
