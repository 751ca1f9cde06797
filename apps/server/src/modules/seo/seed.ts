import type { Seed } from "../../platform/db/seed.ts";
import { savePageMeta } from "./service.ts";

/**
 * Default page metadata. `{name}` and `{ticker}` are filled in by the page. Locales
 * without a row use the page's translated defaults (the web app's `seo` namespace).
 */
const ROWS = [
  {
    pageKey: "airdrops.home",
    locale: "en",
    title: "Crypto Airdrops {year}: Free Token Airdrop Library",
    description:
      "Find active, upcoming and closed crypto airdrops with requirements, estimated value, listing price predictions and step-by-step guides.",
    keywords: "crypto airdrop, free tokens, airdrop list, upcoming airdrops, token listing, price prediction",
  },
  {
    pageKey: "airdrops.list",
    locale: "en",
    title: "All Crypto Airdrops: Active, Upcoming and Closed",
    description:
      "Browse every airdrop by chain, type and requirement. Compare estimated value, current price and listing dates, then trade on Meridian.",
    keywords: "all airdrops, airdrop calendar, active airdrops, airdrop status, claim time",
  },
  {
    pageKey: "airdrops.detail",
    locale: "en",
    title: "{name} ({ticker}) Airdrop: How to Claim, Price Prediction",
    description:
      "{name} ({ticker}) airdrop guide: eligibility, dates, claim time, estimated value, listing price prediction and official links.",
    keywords: "{name} airdrop, {ticker} airdrop, {ticker} price prediction, how to claim {ticker}",
  },
];

export const pageMetaSeed: Seed = {
  name: "page-meta",
  version: 1,
  async seed(db) {
    const now = Date.now();
    for (const row of ROWS) await savePageMeta(db, row, now, "insert-only");
  },
};
