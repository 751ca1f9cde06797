import { TG_APPS_API, TgAppCode, tgAppsPath } from "@meridian/contracts/tg-app-rules";

interface RatingTexts {
  /** The count's text per plural category, `{{count}}` to fill. */
  count: Record<string, string>;
  /** "Your rating: {{stars}}". */
  mine: string;
  success: string;
  tooFrequent: string;
  error: string;
}

interface RatingAnswer {
  stars: number;
  rating: number;
  ratingCount: number;
}

/**
 * The app rating (features/tg-apps/rating.tsx): a star sends the rating through the API
 * client (signed, with the session's CSRF rules: the same path as the hydrated page,
 * features/tg-apps/post.ts, which loads the client on the first rating), and the answer's
 * aggregate and outcome replace the texts in place.
 */
export function wireRatings(root: Document): void {
  for (const section of root.querySelectorAll<HTMLElement>(".tga-rating[data-slug]")) {
    const slug = section.dataset.slug ?? "";
    const lang = section.dataset.lang ?? "en";
    const texts = JSON.parse(section.dataset.texts ?? "{}") as RatingTexts;
    const fieldset = section.querySelector("fieldset");
    const stars = [...section.querySelectorAll<HTMLButtonElement>(".tga-star")];
    const status = section.querySelector<HTMLElement>('[role="status"]');
    const value = section.querySelector<HTMLElement>('[data-testid="rating-value"]');
    const count = section.querySelector<HTMLElement>('[data-testid="rating-count"]');
    const mine = section.querySelector<HTMLElement>("[data-mine]");
    const plural = new Intl.PluralRules(lang);
    const number = new Intl.NumberFormat([lang, "en"], {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      numberingSystem: "latn",
    });

    const show = (answer: RatingAnswer) => {
      if (value) value.textContent = number.format(answer.rating);
      if (count) {
        const n = answer.ratingCount;
        const text =
          texts.count[n === 0 && texts.count.zero ? "zero" : plural.select(n)] ?? texts.count.other ?? "";
        count.textContent = text.replaceAll("{{count}}", String(n));
      }
      stars.forEach((star, i) => {
        star.classList.toggle("tga-star-on", i < answer.stars);
        star.setAttribute("aria-pressed", String(i + 1 === answer.stars));
      });
      if (mine) {
        mine.textContent = texts.mine.replaceAll("{{stars}}", String(answer.stars));
        mine.hidden = false;
      }
    };

    const rate = async (n: number) => {
      if (fieldset) fieldset.disabled = true;
      const { postJson } = await import("../features/tg-apps/post.ts");
      const answer = await postJson<RatingAnswer>(tgAppsPath(TG_APPS_API.rating, { slug }), { stars: n });
      if (fieldset) fieldset.disabled = false;
      let outcome: "success" | "tooFrequent" | "error";
      if (answer.ok && answer.data) {
        show(answer.data);
        outcome = "success";
      } else outcome = answer.code === TgAppCode.RATING_TOO_FREQUENT ? "tooFrequent" : "error";
      if (status) {
        status.textContent = texts[outcome];
        status.className = outcome === "success" ? "tga-ok" : "tga-error";
      }
    };

    stars.forEach((star, i) => {
      star.addEventListener("click", () => void rate(i + 1));
    });
  }
}
