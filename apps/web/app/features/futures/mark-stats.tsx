import type { FuturesMark } from "@meridian/contracts";
import { formatDecimal, mul } from "@meridian/domain";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type FrameStore, useFrameValue } from "../trading-screen/frame-store.ts";

function countdown(until: number, now: number): string {
  const s = Math.max(0, Math.floor((until - now) / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** `symbol`'s mark, index, funding rate and the countdown to the next funding, in the ticker bar. */
export function MarkStats({
  marks,
  symbol,
  priceDecimals,
}: {
  marks: FrameStore<Readonly<Record<string, FuturesMark>>>;
  symbol: string;
  priceDecimals: number;
}) {
  const { t } = useTranslation("futures");
  const mark = useFrameValue(marks, (m) => m[symbol]);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const stat = (label: string, value: string, testId?: string) => (
    <div className="trade-stat">
      <span>{label}</span>
      <strong data-testid={testId}>
        <bdi dir="ltr">{value}</bdi>
      </strong>
    </div>
  );
  const rate = mark ? `${formatDecimal(mul(mark.fundingRate, "100"), 4)}%` : "--";
  return (
    <div className="futures-mark-stats">
      {stat(t("markPrice"), mark ? formatDecimal(mark.markPrice, priceDecimals) : "--", "mark-price")}
      {stat(t("indexPrice"), mark ? formatDecimal(mark.indexPrice, priceDecimals) : "--")}
      {stat(
        t("fundingCountdown"),
        mark && now !== null ? `${rate} / ${countdown(mark.nextFundingTime, now)}` : rate,
        "funding-rate",
      )}
    </div>
  );
}
