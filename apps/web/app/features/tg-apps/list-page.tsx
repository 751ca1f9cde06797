import type { ContentPageResult, TgAppListResult } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { TG_APP_TABS, type TgAppTab } from "@meridian/contracts/tg-app-rules";
import { lazy, Suspense, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { textLangOf } from "../seo/seo.ts";
import { useIslandsPage } from "../shell/islands.ts";
import { AppCard } from "./app-card.tsx";
import { Disclaimer, TgFaq } from "./faq.tsx";
import { listHref } from "./links.ts";
import { Breadcrumb, Pagination } from "./parts.tsx";
import { FIELD_LABELS, SubmitFields } from "./submit-fields.tsx";

// The form and antd's Modal load on first use: most visitors never open them.
const SubmitDialog = lazy(() => import("./submit-dialog.tsx").then((m) => ({ default: m.SubmitDialog })));

export interface ListPageProps {
  locale: string;
  tab: TgAppTab;
  q: string;
  result: TgAppListResult;
  /** The written texts: heading, introduction and FAQ (docs/content.md). */
  page: ContentPageResult;
}

/** Apps and Bot Center list: tabs, search and page live in the URL (plain links and a GET form). */
export function ListPage({ locale, tab, q, result, page }: ListPageProps) {
  const { t } = useTranslation("tgApps");
  const textLang = textLangOf(locale, page.contentLocale);
  const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
  const [submitOpen, setSubmitOpen] = useState(false);
  const [submitLoaded, setSubmitLoaded] = useState(false);
  const email = t("contact.email");
  const islands = useIslandsPage();

  return (
    <div className="tga-page">
      <Breadcrumb
        locale={locale}
        items={[{ name: t("breadcrumb.home"), path: "/" }, { name: t("breadcrumb.center") }]}
      />
      <header className="tga-hero">
        <h1 {...textLang}>{page.title}</h1>
        <p {...textLang}>{page.description}</p>
        <p className="tga-tip" role="note">
          {t("tip", { count: result.totalApps })}
        </p>
      </header>

      <nav className="tga-tabs" aria-label={t("tabsLabel")}>
        <ul>
          {TG_APP_TABS.map((key) => (
            <li key={key}>
              <Link
                to={listHref(locale, { tab: key, q })}
                aria-current={key === tab ? "page" : undefined}
                className={key === tab ? "tga-tab tga-tab-active" : "tga-tab"}
                preventScrollReset
              >
                {t(`tabs.${key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <Form
        method="get"
        action={localizePath(locale, "/telegram-apps")}
        className="tga-search"
        role="search"
        preventScrollReset
      >
        {tab === "all" ? null : <input type="hidden" name="tab" value={tab} />}
        <label htmlFor="tga-q" className="tga-visually-hidden">
          {t("search.label")}
        </label>
        <input
          key={q}
          id="tga-q"
          type="search"
          name="q"
          defaultValue={q}
          placeholder={t("search.placeholder")}
          maxLength={80}
          autoComplete="off"
        />
        <button type="submit" className="tga-button tga-button-primary">
          {t("search.submit")}
        </button>
      </Form>

      <section aria-labelledby="tga-results" className="tga-section">
        <h2 id="tga-results" className="tga-visually-hidden">
          {t(`tabs.${tab}`)}
        </h2>
        <p className="tga-muted" aria-live="polite">
          {t("results", { count: result.total })}
        </p>
        {result.items.length === 0 ? (
          <p className="tga-empty">{t("empty")}</p>
        ) : (
          <ul className="tga-grid">
            {result.items.map((app) => (
              <AppCard key={app.slug} app={app} locale={locale} trackId="b9332" />
            ))}
          </ul>
        )}
        <Pagination page={result.page} pages={pages} hrefOf={(page) => listHref(locale, { tab, q, page })} />
      </section>

      <section className="tga-section tga-note" aria-labelledby="tga-ranking">
        <h2 id="tga-ranking">{t("ranking.title")}</h2>
        <p>
          {t("ranking.body")} {t("ranking.visits")}
        </p>
      </section>

      <section className="tga-section tga-contact">
        <p>
          <Trans
            t={t}
            i18nKey="contact.text"
            values={{ email }}
            components={{ mail: <a href={`mailto:${email}`}>{email}</a> }}
          />
        </p>
        <button
          type="button"
          className="tga-button tga-button-primary"
          aria-controls={islands ? "tga-submit" : undefined}
          onClick={() => {
            setSubmitLoaded(true);
            setSubmitOpen(true);
          }}
        >
          {t("contact.submit")}
        </button>
      </section>

      {islands ? (
        // A page without hydration: the form in a native dialog; the islands bundle sends it
        // (app/islands/submit.ts).
        <dialog id="tga-submit" className="shell-dialog" aria-labelledby="tga-submit-title">
          <div className="shell-dialog-body">
            <h2 id="tga-submit-title">{t("submit.title")}</h2>
            <form
              className="tga-form"
              noValidate
              data-texts={JSON.stringify({
                invalid: Object.fromEntries(
                  Object.entries(FIELD_LABELS).map(([field, label]) => [
                    field,
                    t("submit.invalid", { label: t(label) }),
                  ]),
                ),
                success: t("submit.success"),
                tooMany: t("submit.tooMany"),
                error: t("submit.error"),
              })}
            >
              <SubmitFields />
              <p role="status" hidden />
              <div className="tga-form-actions">
                <button type="button" className="tga-button" data-close>
                  {t("submit.cancel")}
                </button>
                <button type="submit" className="tga-button tga-button-primary">
                  {t("submit.send")}
                </button>
              </div>
            </form>
          </div>
        </dialog>
      ) : null}
      <TgFaq items={page.faq} textLang={textLang} />
      <Disclaimer />

      {submitLoaded ? (
        <Suspense fallback={null}>
          <SubmitDialog open={submitOpen} onClose={() => setSubmitOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
