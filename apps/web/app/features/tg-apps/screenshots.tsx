import { MEDIA_SIZES } from "@meridian/contracts/media-rules";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useIslandsPage } from "../shell/islands.ts";

const VISIBLE = 3;

/** Screenshots, three at first; Show more / Show less reveals the rest. Sizes reserved (9:16). */
export function Screenshots({ name, shots }: { name: string; shots: { src: string; srcset?: string }[] }) {
  const { t } = useTranslation("tgApps");
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const islands = useIslandsPage();
  if (shots.length === 0) return null;
  const shown = expanded ? shots : shots.slice(0, VISIBLE);
  const shot = ({ src, srcset }: { src: string; srcset?: string }, i: number) => (
    <li key={src}>
      <img
        src={src}
        {...(srcset === undefined ? {} : { srcSet: srcset, sizes: MEDIA_SIZES.screenshot })}
        alt={t("detail.screenshotAlt", { name, n: i + 1 })}
        width={180}
        height={320}
        loading="lazy"
        decoding="async"
      />
    </li>
  );
  return (
    <section className="tga-section" aria-labelledby="tga-shots">
      <h2 id="tga-shots">{t("detail.screenshots")}</h2>
      <ul className="tga-shots" id={listId}>
        {shown.map(shot)}
      </ul>
      {islands && shots.length > VISIBLE ? (
        // Without hydration the islands bundle moves these into the list on Show more.
        <template data-more-shots={listId}>
          {shots.slice(VISIBLE).map((s, i) => shot(s, i + VISIBLE))}
        </template>
      ) : null}
      {shots.length > VISIBLE ? (
        <button
          type="button"
          className="tga-button"
          aria-expanded={expanded}
          aria-controls={listId}
          data-more={t("detail.showMore")}
          data-less={t("detail.showLess")}
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? t("detail.showLess") : t("detail.showMore")}
        </button>
      ) : null}
    </section>
  );
}
