import { useTranslation } from "react-i18next";

interface FaqItem {
  q: string;
  a: string;
}

/** Six questions as native disclosure widgets: keyboard-operable, and the answers are in the HTML for crawlers. */
export function TgFaq() {
  const { t } = useTranslation("tgApps");
  const items = t("faq.items", { returnObjects: true }) as FaqItem[];
  return (
    <section className="tga-section" aria-labelledby="tga-faq">
      <h2 id="tga-faq">{t("faq.title")}</h2>
      <div className="tga-faq">
        {(Array.isArray(items) ? items : []).map((item) => (
          <details key={item.q}>
            <summary>
              <h3>{item.q}</h3>
            </summary>
            <p>{item.a}</p>
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
