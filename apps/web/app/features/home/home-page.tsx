import {
  AppstoreOutlined,
  ExperimentOutlined,
  GiftOutlined,
  PercentageOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { localizePath } from "@meridian/contracts/locales";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { markSimulationMode } from "../shell/simulation.ts";
import { type HeroCoin, HeroMarkets } from "./hero-markets.tsx";

interface Section {
  key: string;
  icon: ReactNode;
  path: string;
  extra?: { path: string; label: string };
}

const SECTIONS: readonly Section[] = [
  { key: "simulation", icon: <ExperimentOutlined />, path: "/spot/BTCUSDT" },
  { key: "airdrops", icon: <GiftOutlined />, path: "/airdrops" },
  { key: "apps", icon: <AppstoreOutlined />, path: "/telegram-apps" },
  {
    key: "fees",
    icon: <PercentageOutlined />,
    path: "/fee",
    extra: { path: "/vip/vipIntroduce", label: "sections.fees.vip" },
  },
  { key: "assets", icon: <WalletOutlined />, path: "/asset" },
];

const STEPS = ["create", "verify", "trade"] as const;

/**
 * The homepage: what Meridian is, the popular coins' live prices, and a way into every
 * section. Served without hydration (routes/home.tsx): its links are plain links, the
 * paper-trading ones marked `data-simulation` for the islands bundle (as the header's).
 */
export function HomePage({ locale, coins = [] }: { locale: string; coins?: HeroCoin[] }) {
  const { t } = useTranslation("home");
  const to = (path: string) => localizePath(locale, path);
  return (
    <div className="home">
      <section className="home-hero" aria-labelledby="home-title">
        <div className="home-hero-inner">
          <div className="home-hero-text">
            <p className="home-eyebrow">{t("hero.eyebrow")}</p>
            <h1 id="home-title">{t("hero.title")}</h1>
            <p className="home-subtitle">{t("hero.subtitle")}</p>
            <div className="home-hero-actions">
              <Link
                className="shell-button shell-button-primary shell-button-lg"
                to={to("/spot/BTCUSDT")}
                onClick={markSimulationMode}
                data-simulation=""
              >
                {t("hero.primary")}
              </Link>
              <Link className="shell-button shell-button-outline shell-button-lg" to={to("/spot/BTCUSDT")}>
                {t("hero.secondary")}
              </Link>
            </div>
          </div>
          <HeroMarkets coins={coins} locale={locale} />
        </div>
      </section>

      <section className="home-sections" aria-labelledby="home-sections-title">
        <h2 id="home-sections-title">{t("sections.heading")}</h2>
        <ul className="home-cards">
          {SECTIONS.map((s) => (
            <li key={s.key} className="home-card">
              <span className="home-card-icon" aria-hidden>
                {s.icon}
              </span>
              <h3>{t(`sections.${s.key}.title`)}</h3>
              <p>{t(`sections.${s.key}.body`)}</p>
              <div className="home-card-links">
                <Link
                  to={to(s.path)}
                  onClick={s.key === "simulation" ? markSimulationMode : undefined}
                  data-simulation={s.key === "simulation" ? "" : undefined}
                >
                  {t(`sections.${s.key}.cta`)}
                </Link>
                {s.extra ? <Link to={to(s.extra.path)}>{t(s.extra.label)}</Link> : null}
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-steps" aria-labelledby="home-steps-title">
        <h2 id="home-steps-title">{t("steps.heading")}</h2>
        <ol>
          {STEPS.map((step, i) => (
            <li key={step}>
              <span className="home-step-number" aria-hidden>
                {i + 1}
              </span>
              <span>{t(`steps.${step}`)}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
