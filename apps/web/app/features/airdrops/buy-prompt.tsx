import { localizePath } from "@meridian/contracts/locales";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { spotHref } from "./links.ts";
import { NotListed } from "./not-listed.tsx";

/** Where step 2 of the buy prompt sends the visitor: the accounts feature's identity verification. */
export const VERIFY_PATH = "/account/identity";

/**
 * Sign-up field: a plain GET form to `/register?account=<email or phone>`, so the value
 * reaches the registration form with or without JavaScript.
 */
export function SignupField({ locale }: { locale: string }) {
  const { t } = useTranslation("airdrops");
  const id = useId();
  return (
    <form className="ad-signup" method="get" action={localizePath(locale, "/register")}>
      <label htmlFor={id} className="ad-signup-label">
        {t("signup.label")}
      </label>
      <div className="ad-signup-row">
        <input
          id={id}
          name="account"
          type="text"
          inputMode="email"
          autoComplete="email"
          placeholder={t("signup.placeholder")}
          maxLength={120}
          className="ad-input"
        />
        <button type="submit" className="shell-button shell-button-primary ad-button">
          {t("actions.signUp")}
        </button>
      </div>
    </form>
  );
}

/** The three-step prompt (docs/product.md §2): create a free account, verify it, then buy, deposit or sell. */
export function BuyPrompt({
  locale,
  symbol,
  listingAt,
}: {
  locale: string;
  /** The token's spot pair; "" while it has not listed (step 3 then says so). */
  symbol: string;
  listingAt: number | null;
}) {
  const { t } = useTranslation("airdrops");
  const steps = [
    { key: "step1", href: localizePath(locale, "/register"), cta: t("buy.create") },
    { key: "step2", href: localizePath(locale, VERIFY_PATH), cta: t("buy.verify") },
    { key: "step3", href: symbol ? spotHref(locale, symbol) : "", cta: t("buy.trade") },
  ];
  return (
    <section className="ad-section ad-buy" aria-labelledby="ad-buy-title" data-track-expose="b9411">
      <h2 id="ad-buy-title">{t("buy.title")}</h2>
      <ol className="ad-buy-steps">
        {steps.map((s, i) => (
          <li key={s.key}>
            <span className="ad-buy-number" aria-hidden>
              {i + 1}
            </span>
            <div>
              <h3>{t(`buy.${s.key}`)}</h3>
              <p>{t(`buy.${s.key}Body`)}</p>
              {s.href === "" ? (
                <NotListed listingAt={listingAt} locale={locale} />
              ) : (
                <Link
                  to={s.href}
                  className="ad-link-strong"
                  data-step={s.key}
                  data-track-click="b9412"
                  data-track-ext={JSON.stringify({ step: s.key })}
                >
                  {s.cta}
                </Link>
              )}
            </div>
          </li>
        ))}
      </ol>
      <SignupField locale={locale} />
    </section>
  );
}
