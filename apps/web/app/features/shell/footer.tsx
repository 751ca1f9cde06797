import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { useIslandsPage } from "./islands.ts";
import { Logo } from "./logo.tsx";
import { FOOTER_SECTIONS, navItem } from "./nav-items.ts";
import { ShellLink } from "./shell-link.tsx";
import type { ShellProps } from "./types.ts";

interface FooterProps extends Pick<ShellProps, "locale" | "onNavigate"> {
  onOpenLegal: () => void;
  /** Year shown in the copyright; passed in so server and browser render the same text. */
  year: number;
}

/** Site footer: sections, the disclaimers of docs/product.md §1, copyright and the legal dialog link. */
export function Footer({ locale, onNavigate, onOpenLegal, year }: FooterProps) {
  const { t } = useTranslation("shell");
  const islands = useIslandsPage();
  return (
    <footer className="shell-footer">
      <div className="shell-footer-inner">
        <div className="shell-footer-top">
          <div className="shell-footer-brand">
            <ShellLink
              className="shell-logo"
              href={localizePath(locale, "/")}
              navKey="home"
              onNavigate={onNavigate}
            >
              <Logo />
            </ShellLink>
            <p>{t("footer.tagline")}</p>
          </div>
          {FOOTER_SECTIONS.map((section) => (
            <nav key={section.title} className="shell-footer-section" aria-label={t(section.title)}>
              <h2>{t(section.title)}</h2>
              <ul>
                {section.items.map((key) => {
                  const item = navItem(key);
                  if (!item) return null;
                  return (
                    <li key={key}>
                      <ShellLink href={localizePath(locale, item.path)} navKey={key} onNavigate={onNavigate}>
                        {t(item.label)}
                      </ShellLink>
                    </li>
                  );
                })}
              </ul>
            </nav>
          ))}
        </div>
        <div className="shell-footer-disclaimers">
          <p>{t("footer.educational")}</p>
          <p>{t("footer.thirdParty")}</p>
        </div>
        <div className="shell-footer-bottom">
          <p>{t("footer.copyright", { year })}</p>
          <button
            type="button"
            className="shell-text-button"
            data-testid="legal-dialog-link"
            aria-controls={islands ? "shell-legal" : undefined}
            onClick={onOpenLegal}
          >
            {t("footer.legal")}
          </button>
        </div>
      </div>
    </footer>
  );
}
