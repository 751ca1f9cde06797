import { countdownParts } from "@meridian/contracts/airdrop-rules";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../ui/money.ts";
import { useIslandsPage } from "../shell/islands.ts";

/**
 * Days-left countdown. The server renders it from the loader's clock and the absolute
 * UTC end time; the browser hydrates with that same clock (no mismatch) and only then
 * switches to its own, ticking every second.
 */
export function Countdown({
  endAt,
  serverNow,
  locale,
}: {
  endAt: number;
  serverNow: number;
  locale: string;
}) {
  const { t } = useTranslation("airdrops");
  const [now, setNow] = useState(serverNow);
  const islands = useIslandsPage();
  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const left = endAt - now;
  const { days, hours, minutes, seconds } = countdownParts(left);
  const units = [
    { value: days, label: t("countdown.d") },
    { value: hours, label: t("countdown.h") },
    { value: minutes, label: t("countdown.m") },
    { value: seconds, label: t("countdown.s") },
  ];
  return (
    <div
      className="ad-countdown"
      // Without hydration the islands bundle ticks it (app/islands/countdown.ts) with these.
      data-end-at={islands ? endAt : undefined}
      data-texts={
        islands
          ? JSON.stringify({
              closed: t("status.closed"),
              ended: t("detail.ended"),
              label: t("countdown.label", { days: "{d}", hours: "{h}", minutes: "{m}" }),
            })
          : undefined
      }
    >
      <p className="ad-countdown-title" data-title>
        {left > 0 ? t("detail.countdown") : t("status.closed")}
      </p>
      <p
        className="ad-countdown-units"
        role="timer"
        aria-label={t("countdown.label", { days, hours, minutes })}
      >
        {units.map((u) => (
          <span key={u.label} className="ad-countdown-unit" aria-hidden>
            <strong>{String(u.value).padStart(2, "0")}</strong>
            <span>{u.label}</span>
          </span>
        ))}
      </p>
      <p className="ad-muted">
        <span data-ends>{t(left > 0 ? "detail.ends" : "detail.ended")}</span>{" "}
        <time dateTime={new Date(endAt).toISOString()}>{formatDateTime(endAt, locale)}</time>
      </p>
    </div>
  );
}
