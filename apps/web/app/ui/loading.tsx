import { useTranslation } from "react-i18next";

/**
 * What a card or table shows while its data is on the way: grey bars where the figures
 * will be, announced to screen readers as busy, so a read in flight never looks like an
 * empty list or a balance of 0. `lines`: how many bars (a figure: 1; a list: 3).
 */
export function Loading({ lines = 3, inline = false }: { lines?: number; inline?: boolean }) {
  const { t } = useTranslation("shell");
  return (
    <span
      className={inline ? "ui-loading is-inline" : "ui-loading"}
      role="status"
      aria-busy="true"
      data-testid="loading"
    >
      {Array.from({ length: Math.max(1, lines) }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder bars.
        <span key={i} className="ui-loading-bar" aria-hidden="true" />
      ))}
      <span className="ui-loading-label">{t("loading")}</span>
    </span>
  );
}
