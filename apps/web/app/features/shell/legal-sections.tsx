import { useTranslation } from "react-i18next";

const SECTIONS = [
  { title: "legal.termsTitle", body: "legal.terms" },
  { title: "legal.privacyTitle", body: "legal.privacy" },
  { title: "legal.riskTitle", body: "legal.risk" },
] as const;

/** Terms of use, privacy notice and risk notice: the legal dialog's body (antd Modal or native dialog). */
export function LegalSections() {
  const { t } = useTranslation("shell");
  return SECTIONS.map((s) => (
    <section key={s.title} className="shell-legal-section">
      <h3>{t(s.title)}</h3>
      <p>{t(s.body)}</p>
    </section>
  ));
}
