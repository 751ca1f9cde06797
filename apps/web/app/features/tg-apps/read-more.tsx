import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TextLang } from "../seo/seo.ts";

/**
 * The long description (sanitised HTML from the API), collapsed to a few lines until
 * Read more. The full text is in the document either way, for crawlers.
 */
export function ReadMore({ html, textLang }: { html: string; textLang?: TextLang }) {
  const { t } = useTranslation("tgApps");
  const [open, setOpen] = useState(false);
  const id = useId();
  if (html === "") return null;
  return (
    <div className="tga-readmore">
      <div
        id={id}
        className={open ? "tga-prose" : "tga-prose tga-prose-collapsed"}
        lang={textLang?.lang}
        dir={textLang?.dir}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: stored sanitised by the server (cleanStoredHtml on write)
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <button
        type="button"
        className="tga-link-button"
        aria-expanded={open}
        aria-controls={id}
        data-more={t("detail.readMore")}
        data-less={t("detail.readLess")}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? t("detail.readLess") : t("detail.readMore")}
      </button>
    </div>
  );
}
