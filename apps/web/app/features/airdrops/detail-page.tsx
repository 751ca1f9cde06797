import type { AirdropDetailResult, AirdropSummary } from "@meridian/contracts";
import { claimOpen } from "@meridian/contracts/airdrop-rules";
import { localizePath } from "@meridian/contracts/locales";
import { MEDIA_SIZES } from "@meridian/contracts/media-rules";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatFiat } from "../../ui/money.ts";
import { ResponsiveImg } from "../../ui/responsive-img.tsx";
import { useFiat } from "../shell/fiat.tsx";
import { BuyPrompt, SignupField } from "./buy-prompt.tsx";
import { Countdown } from "./countdown.tsx";
import { DetailFacts } from "./detail-facts.tsx";
import { Faq } from "./faq.tsx";
import { detailHref, spotHref } from "./links.ts";
import { NotListed } from "./not-listed.tsx";
import {
  Breadcrumbs,
  Chip,
  CoinAvatar,
  Disclaimer,
  NewsList,
  RichText,
  StatusTag,
  textLangOf,
} from "./parts.tsx";

export interface AirdropDetailProps {
  locale: string;
  detail: AirdropDetailResult;
}

/** Airdrop detail (docs/product.md §2): every block the specification names, in reading order. */
export function AirdropDetailPage({ locale, detail }: AirdropDetailProps) {
  const { t } = useTranslation("airdrops");
  const a = detail.airdrop;
  const vars = { name: a.name, ticker: a.ticker };
  // Not written in the page's language: the English body, marked as English.
  const textLang = textLangOf(locale, a.contentLocale);
  return (
    <div className="ad-page">
      <Breadcrumbs
        items={[
          { name: t("breadcrumb.home"), href: localizePath(locale, "/") },
          { name: t("breadcrumb.airdrops"), href: localizePath(locale, "/airdrops") },
          { name: t("breadcrumb.list"), href: localizePath(locale, "/airdrops/list") },
          { name: a.name },
        ]}
      />
      <header className="ad-detail-head">
        <CoinAvatar ticker={a.ticker} size={56} image={a.images?.logo} />
        <div className="ad-detail-title">
          <h1>{t("detail.title", vars)}</h1>
          <div className="ad-tags">
            <StatusTag status={a.status} />
            <Chip>{t(`type.${a.type}`)}</Chip>
            {a.requirements.map((r) => (
              <Chip key={r}>{t(`requirement.${r}`)}</Chip>
            ))}
          </div>
          <p className="ad-lead" lang={textLang.lang} dir={textLang.dir ?? "auto"}>
            {a.description}
          </p>
        </div>
      </header>
      {a.images?.cover ? (
        <ResponsiveImg
          className="ad-cover"
          image={a.images.cover}
          sizes={MEDIA_SIZES.cover}
          alt={a.name}
          width={800}
          height={Math.round((800 * a.images.cover.height) / a.images.cover.width)}
          eager
        />
      ) : null}
      <DetailActions detail={detail} locale={locale} />

      <div className="ad-detail-grid">
        <div className="ad-detail-main">
          <section className="ad-section" id="about" aria-labelledby="ad-about">
            <h2 id="ad-about">{t("detail.about", vars)}</h2>
            <RichText html={a.about} textLang={textLang} />
          </section>
          <section className="ad-section" aria-labelledby="ad-airdrop">
            <h2 id="ad-airdrop">{t("detail.airdrop", vars)}</h2>
            <RichText html={a.airdropInfo} textLang={textLang} />
          </section>
          <section className="ad-section" aria-labelledby="ad-guide">
            <h2 id="ad-guide">{t("detail.guide")}</h2>
            <ol className="ad-guide">
              <li>
                <h3>{t("detail.accountStep")}</h3>
                <p>{t("detail.accountStepBody")}</p>
              </li>
              {a.guide.map((step) => (
                <li key={step.title} lang={textLang.lang} dir={textLang.dir ?? "auto"}>
                  <h3>{step.title}</h3>
                  <p>{step.body}</p>
                </li>
              ))}
            </ol>
          </section>
          <section className="ad-section" aria-labelledby="ad-price">
            <h2 id="ad-price">{t("detail.priceDetail", vars)}</h2>
            <RichText html={a.priceDetail} textLang={textLang} />
          </section>
          <section className="ad-section" aria-labelledby="ad-prediction">
            <h2 id="ad-prediction">{t("detail.prediction", vars)}</h2>
            <RichText html={a.prediction} textLang={textLang} />
          </section>
          {a.wikiTitle || a.wikiBody ? (
            <section className="ad-section" id="wiki" aria-labelledby="ad-wiki">
              <h2 id="ad-wiki">
                {t("detail.wiki")}: <span {...textLang}>{a.wikiTitle}</span>
              </h2>
              <RichText html={a.wikiBody} textLang={textLang} />
            </section>
          ) : null}
          <Faq id="ad-detail-faq" title={t("detail.faq", vars)} items={a.faq} textLang={textLang} />
        </div>
        <aside className="ad-detail-side" aria-label={t("detail.facts")}>
          {a.status !== "upcoming" ? (
            <Countdown endAt={a.endAt} serverNow={detail.now} locale={locale} />
          ) : null}
          <DetailFacts airdrop={a} locale={locale} />
          <ProjectLinks links={a.links} />
          <SignupField locale={locale} />
        </aside>
      </div>

      <BuyPrompt locale={locale} symbol={a.marketSymbol} listingAt={a.listingAt} />
      <Neighbours detail={detail} locale={locale} />
      <section className="ad-section" aria-labelledby="ad-others">
        <h2 id="ad-others">{t("detail.others")}</h2>
        <ul className="ad-mini-cards">
          {detail.others.map((o) => (
            <MiniCard key={o.slug} airdrop={o} locale={locale} />
          ))}
        </ul>
      </section>
      <section className="ad-section" aria-labelledby="ad-latest-news">
        <h2 id="ad-latest-news">{t("detail.news")}</h2>
        <NewsList items={detail.news} locale={locale} />
      </section>
      <Disclaimer locale={locale} />
    </div>
  );
}

function DetailActions({ detail, locale }: AirdropDetailProps) {
  const { t } = useTranslation("airdrops");
  const a = detail.airdrop;
  return (
    <div className="ad-actions">
      {a.marketSymbol ? (
        <Link
          to={spotHref(locale, a.marketSymbol)}
          className="shell-button shell-button-primary shell-button-lg"
        >
          {t("actions.buySell")}
        </Link>
      ) : (
        <NotListed listingAt={a.listingAt} locale={locale} className="shell-button-lg" />
      )}
      <Link
        to={localizePath(locale, "/register")}
        className="shell-button shell-button-outline shell-button-lg"
      >
        {t("actions.signUp")}
      </Link>
      <Link
        to={localizePath(locale, "/asset/spot")}
        className="shell-button shell-button-outline shell-button-lg"
      >
        {t("actions.deposit")}
      </Link>
      {claimOpen(a.claimAt, detail.now) && a.links.website ? (
        <a
          href={a.links.website}
          className="shell-button shell-button-outline shell-button-lg"
          target="_blank"
          rel="noopener noreferrer external nofollow"
        >
          {t("actions.claim")}
        </a>
      ) : (
        <span className="shell-button shell-button-outline shell-button-lg ad-disabled" aria-disabled="true">
          {t("actions.claim")}
        </span>
      )}
      <Link
        to={`${localizePath(locale, "/airdrops/list")}?chain=${encodeURIComponent(a.chain)}`}
        className="ad-link-strong"
      >
        {t("actions.seeMore")}
        <span className="ad-visually-hidden">: {t("detail.moreOnChain", { chain: a.chain })}</span>
      </Link>
    </div>
  );
}

function ProjectLinks({ links }: { links: AirdropDetailResult["airdrop"]["links"] }) {
  const { t } = useTranslation("airdrops");
  const entries = (["website", "whitepaper", "x", "discord"] as const).filter((k) => links[k] !== "");
  if (entries.length === 0) return null;
  return (
    <section className="ad-box" aria-labelledby="ad-links">
      <h2 id="ad-links">{t("detail.links")}</h2>
      <ul className="ad-links">
        {entries.map((k) => (
          <li key={k}>
            <a href={links[k]} target="_blank" rel="noopener noreferrer external nofollow">
              {t(`detail.${k}`)}
              <span className="ad-visually-hidden"> {t("detail.newTab")}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Neighbours({ detail, locale }: AirdropDetailProps) {
  const { t } = useTranslation("airdrops");
  if (!detail.previous && !detail.next) return null;
  return (
    <nav className="ad-neighbours" aria-label={t("detail.neighbours")}>
      {detail.previous ? (
        <Link to={detailHref(locale, detail.previous.slug)} rel="prev" className="ad-neighbour">
          <span className="ad-muted">{t("detail.previous")}</span>
          <strong>{detail.previous.name}</strong>
        </Link>
      ) : (
        <span />
      )}
      {detail.next ? (
        <Link to={detailHref(locale, detail.next.slug)} rel="next" className="ad-neighbour ad-neighbour-next">
          <span className="ad-muted">{t("detail.next")}</span>
          <strong>{detail.next.name}</strong>
        </Link>
      ) : null}
    </nav>
  );
}

function MiniCard({ airdrop: a, locale }: { airdrop: AirdropSummary; locale: string }) {
  const { fiat } = useFiat();
  const { t } = useTranslation("airdrops");
  return (
    <li className="ad-mini-card">
      <CoinAvatar ticker={a.ticker} size={32} image={a.images?.logo} />
      <div>
        <Link to={detailHref(locale, a.slug)}>{a.name}</Link>
        <span className="ad-muted">
          {t("columns.estValue")}: {formatFiat(a.estValue, fiat, locale)}
        </span>
      </div>
      <StatusTag status={a.status} />
    </li>
  );
}
