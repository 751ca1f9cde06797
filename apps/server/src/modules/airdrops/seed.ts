import {
  type AirdropInput,
  airdropInputSchema,
  airdropNewsInputSchema,
  type FaqItem,
} from "@meridian/contracts";
import type { Seed } from "../../platform/db/seed.ts";
import type { Queryable } from "../../platform/db/types.ts";
import { SEED_AIRDROPS, type SeedAirdrop } from "./seed-data.ts";
import { SEED_HOME_FAQ, SEED_NEWS, SEED_TRANSLATIONS } from "./seed-extra.ts";
import { HOME_FAQ_KEY } from "./service.ts";
import {
  sanitizeAirdropInput,
  sanitizeNewsInput,
  saveAirdrop,
  saveCoin,
  saveFaq,
  saveNews,
} from "./writes.ts";

const DAY = 86_400_000;

/** Popular cryptocurrencies by market cap (seeded USD figures until market data exists). */
const COINS = [
  { symbol: "BTC", name: "Bitcoin", price: "96250.00", marketCap: "1910000000000", change24h: "1.84" },
  { symbol: "ETH", name: "Ethereum", price: "3420.50", marketCap: "412000000000", change24h: "2.31" },
  { symbol: "USDT", name: "Tether", price: "1.00", marketCap: "184000000000", change24h: "0.01" },
  { symbol: "XRP", name: "XRP", price: "2.18", marketCap: "126000000000", change24h: "-0.92" },
  { symbol: "BNB", name: "BNB", price: "905.40", marketCap: "126000000000", change24h: "0.47" },
  { symbol: "SOL", name: "Solana", price: "182.70", marketCap: "99000000000", change24h: "3.12" },
  { symbol: "USDC", name: "USD Coin", price: "1.00", marketCap: "75000000000", change24h: "0.00" },
  { symbol: "DOGE", name: "Dogecoin", price: "0.19", marketCap: "28000000000", change24h: "-1.46" },
  { symbol: "TRX", name: "TRON", price: "0.29", marketCap: "27000000000", change24h: "0.35" },
  { symbol: "TON", name: "Toncoin", price: "2.05", marketCap: "5200000000", change24h: "1.08" },
];

const utc = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
// Whole UTC days keep relative seeds on clean boundaries.
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

function dates(s: SeedAirdrop, now: number) {
  if ("start" in s.when) {
    const listingAt = s.when.listing ? utc(s.when.listing) : null;
    const endAt = utc(s.when.end);
    return { startAt: utc(s.when.start), endAt, listingAt, claimAt: endAt + 7 * DAY };
  }
  const base = dayStart(now);
  const startAt = base + s.when.startInDays * DAY;
  const endAt = base + s.when.endInDays * DAY;
  const listingAt = s.when.listingInDays === undefined ? null : base + s.when.listingInDays * DAY;
  return { startAt, endAt, listingAt, claimAt: endAt + 3 * DAY };
}

const REQUIREMENT_STEP: Record<string, string> = {
  kyc: "Complete identity verification (KYC) on your account; unverified accounts are not eligible.",
  deposit: "Deposit the qualifying assets and keep them for the snapshot period.",
  trading_volume: "Trade on the supported venues; allocations scale with the volume you build.",
  social_tasks: "Finish the social tasks: follow the project's accounts and join its community channels.",
  free: "No payment is needed: activity is enough to qualify.",
};

/** The English record of one seeded airdrop; long texts follow one editorial template. */
export function seedInput(s: SeedAirdrop, now: number): AirdropInput {
  const d = dates(s, now);
  const listed = d.listingAt !== null && d.listingAt <= now && s.price !== "0";
  const guide = [
    {
      title: "Create a free Meridian account",
      body: "Sign up with your email or phone number so you can trade the token when it lists.",
    },
    ...s.requirements.map((r) => ({
      title: r === "free" ? "Check your eligibility" : "Meet the requirements",
      body: REQUIREMENT_STEP[r] ?? "",
    })),
    {
      title: `Claim your ${s.ticker}`,
      body: `Claim on the official ${s.name} site (check the link below) during the claim window, then deposit to Meridian to trade.`,
    },
  ];
  const faq: FaqItem[] = [
    {
      question: `What is ${s.name}?`,
      answer: s.description,
    },
    {
      question: `Which chain is ${s.ticker} on?`,
      answer: `${s.ticker} lives on ${s.chain}. Make sure you deposit it through the ${s.chain} network.`,
    },
    {
      question: `How do I claim the ${s.name} airdrop?`,
      answer:
        "Only claim through the official website listed on this page. Never share your seed phrase: no real airdrop asks for it.",
    },
  ];
  return airdropInputSchema.parse({
    slug: s.slug,
    name: s.name,
    ticker: s.ticker,
    chain: s.chain,
    type: s.type,
    requirements: s.requirements,
    marketSymbol: listed ? `${s.ticker}USDT` : "",
    estValue: s.estValue,
    seedPrice: s.price,
    predictedPrice: s.predicted,
    marketCap: s.marketCap,
    listingAt: d.listingAt,
    startAt: d.startAt,
    endAt: d.endAt,
    claimAt: d.claimAt,
    websiteUrl: s.website,
    whitepaperUrl: s.whitepaper ?? "",
    discordUrl: s.discord ?? "",
    xUrl: s.x,
    description: s.description,
    about: s.about,
    airdropInfo: `<p>The ${s.name} airdrop is a ${s.type} airdrop on ${s.chain}. ${s.description}</p><p>Estimated value per eligible participant: about $${s.estValue}. Allocations differ widely between wallets; treat the estimate as a rough guide.</p>`,
    priceDetail: `<p>${s.ticker} ${listed ? `trades against USDT on Meridian as ${s.ticker}USDT` : "has not listed on Meridian yet"}. The price shown here is indicative and may lag the live market.</p>`,
    prediction: `<p>Our listing price prediction for ${s.ticker} is $${s.predicted}. Airdropped tokens are often volatile in the first weeks as recipients sell; past performance is no guide to the future.</p>`,
    wikiTitle: `${s.name} (${s.ticker})`,
    wikiBody: `${s.about}<p>Chain: ${s.chain}. Airdrop type: ${s.type}.</p>`,
    guide,
    faq,
    published: true,
    translations: SEED_TRANSLATIONS[s.slug] ?? {},
  });
}

/** Writes the demo library as of `now` (tests pass a fixed instant). */
export async function seedAll(tx: Queryable, now: number): Promise<void> {
  for (const s of SEED_AIRDROPS)
    await saveAirdrop(tx, sanitizeAirdropInput(seedInput(s, now)), now, "insert-only");
  for (const n of SEED_NEWS) {
    const publishedAt = "daysAgo" in n ? dayStart(now) - n.daysAgo * DAY + 9 * 3600_000 : utc(n.date);
    const input = airdropNewsInputSchema.parse({ ...n.input, publishedAt });
    await saveNews(tx, sanitizeNewsInput(input), now, "insert-only");
  }
  for (const [locale, items] of Object.entries(SEED_HOME_FAQ)) await saveFaq(tx, HOME_FAQ_KEY, locale, items);
  for (const coin of COINS) await saveCoin(tx, coin, now);
}

/** Demo airdrops, news, FAQ and coins; existing rows are left alone (ON CONFLICT DO NOTHING). */
export const airdropsSeed: Seed = {
  name: "airdrops",
  version: 1,
  async seed(db, { log }) {
    const now = Date.now();
    await db.transaction((tx) => seedAll(tx, now));
    log.info({ airdrops: SEED_AIRDROPS.length, news: SEED_NEWS.length }, "airdrop library seeded");
  },
};
