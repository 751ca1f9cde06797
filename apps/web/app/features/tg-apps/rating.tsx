import { getLocale } from "@meridian/contracts/locales";
import { TG_APPS_API, TgAppCode, tgAppsPath } from "@meridian/contracts/tg-app-rules";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useIslandsPage } from "../shell/islands.ts";
import { formatRating } from "./format.ts";
import { loginHref } from "./links.ts";
import { postJson } from "./post.ts";

interface RatingProps {
  slug: string;
  locale: string;
  rating: number;
  ratingCount: number;
  myRating: number | null;
  loggedIn: boolean;
  /** This page's path without the language prefix, for the login return. */
  returnTo: string;
}

type Outcome = "success" | "tooFrequent" | "error";

/**
 * Ratings: the aggregate, and for logged-in visitors five buttons (1 to 5 stars). The
 * answer carries the new aggregate, shown at once; outcomes use the three texts of docs/product.md §8.
 */
export function RatingBlock({
  slug,
  locale,
  rating,
  ratingCount,
  myRating,
  loggedIn,
  returnTo,
}: RatingProps) {
  const { t, i18n } = useTranslation("tgApps");
  const islands = useIslandsPage();
  const [agg, setAgg] = useState({ rating, ratingCount, mine: myRating });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  const handleRate = async (stars: number) => {
    setBusy(true);
    const answer = await postJson<{ stars: number; rating: number; ratingCount: number }>(
      tgAppsPath(TG_APPS_API.rating, { slug }),
      { stars },
    );
    setBusy(false);
    if (answer.ok && answer.data) {
      setAgg({ rating: answer.data.rating, ratingCount: answer.data.ratingCount, mine: answer.data.stars });
      setOutcome("success");
    } else setOutcome(answer.code === TgAppCode.RATING_TOO_FREQUENT ? "tooFrequent" : "error");
  };

  return (
    <section
      className="tga-section tga-rating"
      aria-labelledby="tga-ratings"
      // Without hydration the islands bundle rates (app/islands/rating.ts) with these.
      data-slug={islands ? slug : undefined}
      data-lang={islands ? getLocale(locale).htmlLang : undefined}
      data-texts={islands ? JSON.stringify(ratingTexts(i18n.language, (key) => raw(i18n, key))) : undefined}
    >
      <h2 id="tga-ratings">{t("detail.ratings")}</h2>
      <p className="tga-rating-score">
        <span className="tga-rating-value" data-testid="rating-value">
          {formatRating(agg.rating, locale)}
        </span>
        <span className="tga-muted"> {t("detail.outOf")} · </span>
        <span data-testid="rating-count">{t("detail.ratingCount", { count: agg.ratingCount })}</span>
      </p>
      {loggedIn ? (
        <fieldset className="tga-rate" disabled={busy}>
          <legend>{t("detail.rate")}</legend>
          <div className="tga-rate-stars">
            {[1, 2, 3, 4, 5].map((n) => (
              <button
                key={n}
                type="button"
                className={agg.mine !== null && n <= agg.mine ? "tga-star tga-star-on" : "tga-star"}
                aria-label={t("detail.rateStars", { count: n })}
                aria-pressed={agg.mine === n}
                onClick={() => handleRate(n)}
              >
                ★
              </button>
            ))}
          </div>
          {agg.mine !== null || islands ? (
            <p className="tga-muted" data-mine hidden={agg.mine === null}>
              {agg.mine !== null ? t("detail.yourRating", { stars: agg.mine }) : ""}
            </p>
          ) : null}
        </fieldset>
      ) : (
        <Link className="tga-button" to={loginHref(locale, returnTo)}>
          {t("detail.loginToRate")}
        </Link>
      )}
      <p role="status" className={outcome === "success" ? "tga-ok" : outcome ? "tga-error" : "tga-status"}>
        {outcome ? t(`rating.${outcome}`) : ""}
      </p>
    </section>
  );
}

/** A text as written, `{{…}}` placeholders kept (the islands bundle fills them). */
function raw(
  i18n: { getResource: (lng: string, ns: string, key: string) => unknown; language: string },
  key: string,
) {
  const text = i18n.getResource(i18n.language, "tgApps", key);
  return typeof text === "string" ? text : "";
}

/** Plural categories of a language (Intl), as i18next suffixes its plural keys. */
function pluralCategories(lng: string): string[] {
  try {
    return new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
  } catch {
    return ["one", "other"];
  }
}

/**
 * The texts the rating island shows after an answer, in the page's language: the count
 * per plural category (`{{count}}` left to fill), "your rating" (`{{stars}}`) and the outcomes.
 */
function ratingTexts(lng: string, t: (key: string) => string) {
  const count: Record<string, string> = {};
  for (const category of pluralCategories(lng)) count[category] = t(`detail.ratingCount_${category}`);
  return {
    count,
    mine: t("detail.yourRating"),
    success: t("rating.success"),
    tooFrequent: t("rating.tooFrequent"),
    error: t("rating.error"),
  };
}
