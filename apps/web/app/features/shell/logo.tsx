import { useTranslation } from "react-i18next";

/** Wordmark with a compass-like mark; decorative SVG, the text carries the name. */
export function Logo() {
  const { t } = useTranslation("shell");
  return (
    <>
      <svg
        className="shell-logo-mark"
        viewBox="0 0 32 32"
        width="28"
        height="28"
        aria-hidden
        focusable="false"
      >
        <rect width="32" height="32" rx="8" fill="#f0b90b" />
        <path d="M16 5 21 16 16 27 11 16Z" fill="#181a20" />
        <path d="M5 16 16 12.5 27 16 16 19.5Z" fill="#181a20" opacity="0.55" />
      </svg>
      <span className="shell-logo-text">{t("brand")}</span>
    </>
  );
}
