import { TG_APPS_API, TgAppCode, tgAppsPath } from "@meridian/contracts/tg-app-rules";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
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
  const { t } = useTranslation("tgApps");
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
    <section className="tga-section tga-rating" aria-labelledby="tga-ratings">
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
          {agg.mine !== null ? (
            <p className="tga-muted">{t("detail.yourRating", { stars: agg.mine })}</p>
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
