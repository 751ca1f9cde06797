import { useTranslation } from "react-i18next";
import type { TextLang } from "../seo/seo.ts";

/**
 * Six questions as native disclosure widgets: keyboard-operable, and the answers are in
 * the HTML for crawlers. The items are written content (docs/content.md), `textLang` set
 * when they are in another language than the page.
 */
export function TgFaq({
  items,
  textLang,
}: {
  items: { question: string; answer: string }[];
  textLang: TextLang;
}) {
  const { t } = useTranslation("tgApps");
  return (
    <section className="tga-section" aria-labelledby="tga-faq">
      <h2 id="tga-faq">{t("faq.title")}</h2>
      <div className="tga-faq" {...textLang}>
        {items.map((item) => (
          <details key={item.question}>
            <summary>
              <h3>{item.question}</h3>
            </summary>
            <p>{item.answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}

export function Disclaimer() {
  const { t } = useTranslation("tgApps");
  return (
    <p className="tga-disclaimer" role="note">
      {t("disclaimer")}
    </p>
  );
}
