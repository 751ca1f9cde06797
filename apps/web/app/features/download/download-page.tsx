import {
  CloudDownloadOutlined,
  LineChartOutlined,
  MobileOutlined,
  SafetyCertificateOutlined,
  ThunderboltOutlined,
  WifiOutlined,
} from "@ant-design/icons";
import { localizePath } from "@meridian/contracts/locales";
import { QRCode } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DOWNLOAD_BAR_HIDDEN_CLASS, DOWNLOAD_BAR_STORAGE_KEY } from "../shell/download-bar.tsx";
import { isStandalone, registerServiceWorker } from "./service-worker.ts";

/** Chromium's install prompt event (not in the DOM typings). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

type InstallState = "unknown" | "ready" | "installed" | "manual";

function useInstall() {
  const [state, setState] = useState<InstallState>("unknown");
  const [prompt, setPrompt] = useState<InstallPromptEvent | null>(null);
  useEffect(() => {
    void registerServiceWorker();
    if (isStandalone()) {
      setState("installed");
      return undefined;
    }
    const onPrompt = (e: Event) => {
      e.preventDefault();
      setPrompt(e as InstallPromptEvent);
      setState("ready");
    };
    const onInstalled = () => setState("installed");
    window.addEventListener("beforeinstallprompt", onPrompt);
    window.addEventListener("appinstalled", onInstalled);
    // Browsers without the prompt (Safari, Firefox): the menu's "Add to Home Screen".
    const manual = setTimeout(() => setState((s) => (s === "unknown" ? "manual" : s)), 1500);
    return () => {
      window.removeEventListener("beforeinstallprompt", onPrompt);
      window.removeEventListener("appinstalled", onInstalled);
      clearTimeout(manual);
    };
  }, []);
  const install = async () => {
    if (prompt === null) return;
    await prompt.prompt();
    const choice = await prompt.userChoice;
    setPrompt(null);
    setState(choice.outcome === "accepted" ? "installed" : "manual");
  };
  return { state, install };
}

/** The top download bar's choice (docs/product.md §3 key "top download bar visible"). */
function useBarVisible(): [boolean, (v: boolean) => void] {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    try {
      setVisible(window.localStorage.getItem(DOWNLOAD_BAR_STORAGE_KEY) !== "false");
    } catch {
      setVisible(true);
    }
  }, []);
  const set = (v: boolean) => {
    setVisible(v);
    try {
      window.localStorage.setItem(DOWNLOAD_BAR_STORAGE_KEY, v ? "true" : "false");
    } catch {
      // Blocked storage: this page only.
    }
    document.documentElement.classList.toggle(DOWNLOAD_BAR_HIDDEN_CLASS, !v);
  };
  return [visible, set];
}

const FEATURES = [
  ["markets", LineChartOutlined],
  ["offline", WifiOutlined],
  ["fast", ThunderboltOutlined],
  ["paper", SafetyCertificateOutlined],
  ["home", MobileOutlined],
  ["updates", CloudDownloadOutlined],
] as const;

/** /download: the site as an installable app, a QR code to open it on a phone, what it offers. */
export function DownloadPage({ locale, origin }: { locale: string; origin: string }) {
  const { t } = useTranslation("pages");
  const { state, install } = useInstall();
  const [barVisible, setBarVisible] = useBarVisible();
  const siteUrl = `${origin}${localizePath(locale, "/")}`;
  return (
    <main className="download" data-testid="download-page">
      <section className="download-hero">
        <div className="download-hero-text">
          <h1>{t("download.title")}</h1>
          <p>{t("download.lead")}</p>
          <div className="download-install" data-testid="download-install" data-state={state}>
            {state === "ready" ? (
              <button type="button" className="assets-button is-primary" onClick={() => void install()}>
                {t("download.install")}
              </button>
            ) : state === "installed" ? (
              <strong>{t("download.installed")}</strong>
            ) : (
              <p>{t("download.manual")}</p>
            )}
          </div>
          <label className="download-bar-toggle">
            <input
              type="checkbox"
              checked={barVisible}
              onChange={(e) => setBarVisible(e.target.checked)}
              data-testid="download-bar-toggle"
            />
            <span>{t("download.barToggle")}</span>
          </label>
        </div>
        <figure className="download-qr" data-testid="download-qr">
          <QRCode value={siteUrl} size={176} color="#000000" bgColor="#ffffff" type="svg" />
          <figcaption>
            {t("download.scan")}
            <br />
            <bdi dir="ltr">{siteUrl}</bdi>
          </figcaption>
        </figure>
      </section>
      <section className="download-features" aria-label={t("download.offers")}>
        <h2>{t("download.offers")}</h2>
        <ul>
          {FEATURES.map(([key, Icon]) => (
            <li key={key}>
              <Icon aria-hidden className="download-feature-icon" />
              <h3>{t(`download.features.${key}.title`)}</h3>
              <p>{t(`download.features.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
