import { MEDIA_SIZES } from "@meridian/contracts/media-rules";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";

const VISIBLE = 3;

/** Screenshots, three at first; Show more / Show less reveals the rest. Sizes reserved (9:16). */
export function Screenshots({ name, shots }: { name: string; shots: { src: string; srcset?: string }[] }) {
  const { t } = useTranslation("tgApps");
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  if (shots.length === 0) return null;
  const shown = expanded ? shots : shots.slice(0, VISIBLE);
  return (
    <section className="tga-section" aria-labelledby="tga-shots">
      <h2 id="tga-shots">{t("detail.screenshots")}</h2>
      <ul className="tga-shots" id={listId}>
        {shown.map((shot, i) => (
          <li key={shot.src}>
            <img
              src={shot.src}
              {...(shot.srcset === undefined ? {} : { srcSet: shot.srcset, sizes: MEDIA_SIZES.screenshot })}
              alt={t("detail.screenshotAlt", { name, n: i + 1 })}
              width={180}
              height={320}
              loading="lazy"
              decoding="async"
            />
          </li>
        ))}
      </ul>
      {shots.length > VISIBLE ? (
        <button
          type="button"
          className="tga-button"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? t("detail.showLess") : t("detail.showMore")}
        </button>
      ) : null}
    </section>
  );
}
