import { CloseOutlined, MobileOutlined } from "@ant-design/icons";
import { localizePath } from "@meridian/contracts/locales";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ShellLink } from "./shell-link.tsx";
import { DOWNLOAD_BAR_HIDDEN_CLASS, DOWNLOAD_BAR_STORAGE_KEY } from "./storage-keys.ts";
import type { ShellProps } from "./types.ts";

export { DOWNLOAD_BAR_HIDDEN_CLASS, DOWNLOAD_BAR_STORAGE_KEY };

/**
 * Inline script for `<head>`: hides the bar before first paint when it was dismissed, so
 * it never flashes. Written without `<`, `>` or `&` so it survives HTML text escaping.
 */
export const DOWNLOAD_BAR_BOOT_SCRIPT = `try{if(localStorage.getItem("${DOWNLOAD_BAR_STORAGE_KEY}")==="false")document.documentElement.classList.add("${DOWNLOAD_BAR_HIDDEN_CLASS}")}catch(e){}`;

function readVisible(): boolean {
  try {
    return window.localStorage.getItem(DOWNLOAD_BAR_STORAGE_KEY) !== "false";
  } catch {
    return true;
  }
}

/** Dismissible strip inviting the visitor to the app; the choice persists in local storage. */
export function DownloadBar({ locale, onNavigate }: Pick<ShellProps, "locale" | "onNavigate">) {
  const { t } = useTranslation("shell");
  const [visible, setVisible] = useState(true);

  useEffect(() => {
    setVisible(readVisible());
  }, []);

  if (!visible) return null;

  const handleClose = () => {
    setVisible(false);
    document.documentElement.classList.add(DOWNLOAD_BAR_HIDDEN_CLASS);
    try {
      window.localStorage.setItem(DOWNLOAD_BAR_STORAGE_KEY, "false");
    } catch {
      // Blocked storage: the bar stays closed for this page only.
    }
  };

  return (
    <aside className="shell-download-bar" aria-label={t("downloadBar.action")} data-testid="download-bar">
      <MobileOutlined aria-hidden className="shell-download-icon" />
      <span className="shell-download-text">{t("downloadBar.text")}</span>
      <ShellLink
        className="shell-download-action"
        href={localizePath(locale, "/download")}
        navKey="download"
        onNavigate={onNavigate}
      >
        {t("downloadBar.action")}
      </ShellLink>
      <button
        type="button"
        className="shell-download-close"
        aria-label={t("downloadBar.close")}
        data-testid="download-bar-close"
        onClick={handleClose}
      >
        <CloseOutlined aria-hidden />
      </button>
    </aside>
  );
}
