import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { ShellLink } from "./shell-link.tsx";
import type { ShellProps } from "./types.ts";

/** "404 - Page not found" with a link back to the homepage, in the visitor's locale. */
export function NotFound({ locale, onNavigate }: Pick<ShellProps, "locale" | "onNavigate">) {
  const { t } = useTranslation("shell");
  return (
    <section className="not-found" aria-labelledby="not-found-title" data-testid="not-found">
      <p className="not-found-code" aria-hidden>
        404
      </p>
      <h1 id="not-found-title">{t("notFound.title")}</h1>
      <p>{t("notFound.body")}</p>
      <ShellLink
        className="shell-button shell-button-primary"
        href={localizePath(locale, "/")}
        navKey="home"
        onNavigate={onNavigate}
      >
        {t("notFound.back")}
      </ShellLink>
    </section>
  );
}
