import type { VipDetail } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { formatDecimal, ppmToPercent, VIP_TIERS, vipTier } from "@meridian/domain";
import { useTranslation } from "react-i18next";
import { InterestTable, TierTable } from "./tier-table.tsx";

interface PageProps {
  locale: string;
  /** The logged-in user's VIP level, null for visitors. */
  level: number | null;
}

function Hero({ title, lead, children }: { title: string; lead: string; children?: React.ReactNode }) {
  return (
    <header className="fees-hero">
      <div className="fees-inner">
        <h1>{title}</h1>
        <p>{lead}</p>
        {children}
      </div>
    </header>
  );
}

/** /fee: the spot maker/taker schedule by VIP tier and how fees are charged. */
export function FeePage({ locale, level }: PageProps) {
  const { t } = useTranslation("fees");
  return (
    <div className="fees" data-testid="fee-page">
      <Hero title={t("fee.title")} lead={t("fee.lead")} />
      <div className="fees-inner fees-body">
        {level !== null ? <CurrentTier level={level} /> : null}
        <h2>{t("fee.spotTitle")}</h2>
        <TierTable tiers={VIP_TIERS} current={level} />
        <h2>{t("fee.futuresTitle")}</h2>
        <TierTable tiers={VIP_TIERS} current={level} market="futures" />
        <h2>{t("fee.marginTitle")}</h2>
        <p>{t("fee.marginLead")}</p>
        <InterestTable />
        <h2>{t("fee.howTitle")}</h2>
        <ul className="fees-notes">
          <li>{t("fee.notes.maker")}</li>
          <li>{t("fee.notes.taker")}</li>
          <li>{t("fee.notes.quote")}</li>
          <li>{t("fee.notes.paper")}</li>
        </ul>
        <p>
          <a href={localizePath(locale, "/vip/vipIntroduce")}>{t("fee.vipLink")}</a>
        </p>
      </div>
    </div>
  );
}

function CurrentTier({ level }: { level: number }) {
  const { t } = useTranslation("fees");
  const tier = vipTier(level);
  return (
    <section className="fees-current" aria-label={t("detail.current")} data-testid="current-tier">
      <div>
        <span>{t("detail.current")}</span>
        <strong>{t("level", { level: tier.level })}</strong>
      </div>
      <div>
        <span>{t("table.maker")}</span>
        <strong>{ppmToPercent(tier.makerPpm)}%</strong>
      </div>
      <div>
        <span>{t("table.taker")}</span>
        <strong>{ppmToPercent(tier.takerPpm)}%</strong>
      </div>
    </section>
  );
}

/** /vip/vipIntroduce: what the VIP programme gives and how a tier is reached. */
export function VipIntroPage({ locale, level }: PageProps) {
  const { t } = useTranslation("fees");
  const top = vipTier(9);
  const benefits = ["fees", "support", "limits", "events"] as const;
  return (
    <div className="fees" data-testid="vip-intro-page">
      <Hero
        title={t("intro.title")}
        lead={t("intro.lead", { maker: ppmToPercent(top.makerPpm), taker: ppmToPercent(top.takerPpm) })}
      >
        <a className="fees-cta" href={localizePath(locale, level === null ? "/register" : "/vip/detail")}>
          {t(level === null ? "intro.join" : "intro.myLevel")}
        </a>
      </Hero>
      <div className="fees-inner fees-body">
        <ul className="fees-benefits">
          {benefits.map((b) => (
            <li key={b}>
              <h3>{t(`intro.benefits.${b}.title`)}</h3>
              <p>{t(`intro.benefits.${b}.body`)}</p>
            </li>
          ))}
        </ul>
        <h2>{t("intro.howTitle")}</h2>
        <ol className="fees-steps">
          <li>{t("intro.how.volume")}</li>
          <li>{t("intro.how.balance")}</li>
          <li>{t("intro.how.review")}</li>
          <li>{t("intro.how.paper")}</li>
        </ol>
        <h2>{t("fee.spotTitle")}</h2>
        <TierTable tiers={VIP_TIERS} current={level} />
      </div>
    </div>
  );
}

/** The figures the daily review measures: 30-day volume and counted balance, and what the next tier lacks. */
function VipProgress({ vip, locale }: { vip: VipDetail; locale: string }) {
  const { t } = useTranslation("fees");
  return (
    <section className="fees-progress" data-testid="vip-progress">
      <dl>
        <div>
          <dt>{t("detail.volume")}</dt>
          <dd data-testid="vip-volume" dir="ltr">
            {formatDecimal(vip.volume30d, 2)} USDT
          </dd>
        </div>
        <div>
          <dt>{t("detail.balance")}</dt>
          <dd data-testid="vip-balance" dir="ltr">
            {formatDecimal(vip.balance, 2)} USDT
          </dd>
        </div>
        {vip.next ? (
          <div>
            <dt>{t("detail.needed", { level: vip.next.level })}</dt>
            <dd data-testid="vip-needed">
              {t("detail.neededBody", {
                volume: formatDecimal(vip.next.volumeNeeded, 0),
                balance: formatDecimal(vip.next.balanceNeeded, 0),
              })}
            </dd>
          </div>
        ) : null}
      </dl>
      <p className="fees-review">
        {vip.computedAt === null
          ? t("detail.notReviewed")
          : t("detail.reviewed", {
              time: new Date(vip.computedAt).toLocaleString(locale, { timeZone: "UTC" }),
            })}{" "}
        {t("detail.paperNote")}
      </p>
    </section>
  );
}

/** /vip/detail: the user's tier, the figures so far, what the next one asks, and every tier. */
export function VipDetailPage({ locale, level, vip }: PageProps & { vip?: VipDetail | null }) {
  const { t } = useTranslation("fees");
  const next = level === null || level >= 9 ? null : vipTier(level + 1);
  return (
    <div className="fees" data-testid="vip-detail-page">
      <Hero title={t("detail.title")} lead={t("detail.lead")} />
      <div className="fees-inner fees-body">
        {level === null ? (
          <p className="fees-login">
            <a className="fees-cta" href={localizePath(locale, "/login")}>
              {t("detail.login")}
            </a>
          </p>
        ) : (
          <>
            <CurrentTier level={level} />
            {vip ? <VipProgress vip={vip} locale={locale} /> : null}
            {next ? (
              <section className="fees-next" data-testid="next-tier">
                <h2>{t("detail.nextTitle", { level: next.level })}</h2>
                <p>
                  {t("detail.nextBody", {
                    volume: formatDecimal(next.minVolume30d, 0),
                    balance: formatDecimal(next.minBalance, 0),
                  })}
                </p>
              </section>
            ) : (
              <p className="fees-next">{t("detail.top")}</p>
            )}
          </>
        )}
        <h2>{t("detail.allTitle")}</h2>
        <TierTable tiers={VIP_TIERS} current={level} />
      </div>
    </div>
  );
}
