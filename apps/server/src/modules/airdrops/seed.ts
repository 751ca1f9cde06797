import {
  type AirdropInput,
  type AirdropItemFile,
  type AirdropNewsItemFile,
  type AirdropNewsTextFile,
  type AirdropTextFile,
  airdropInputSchema,
  airdropNewsInputSchema,
  type FaqItem,
} from "@meridian/contracts";
import type { Queryable } from "../../platform/db/types.ts";
import { HOME_FAQ_KEY } from "./service.ts";
import type { AirdropTexts } from "./texts.ts";
import { sanitizeAirdropInput, sanitizeNewsInput, saveAirdrop, saveCoin, saveNews } from "./writes.ts";

const DAY = 86_400_000;

/**
 * Stand-in figures for the popular coins table, used only where the market-data service
 * does not run (the home reads `market.caps` when it does).
 */
const COINS = [
  { symbol: "BTC", name: "Bitcoin", price: "96250.00", marketCap: "1910000000000", change24h: "1.84" },
  { symbol: "ETH", name: "Ethereum", price: "3420.50", marketCap: "412000000000", change24h: "2.31" },
  { symbol: "USDT", name: "Tether", price: "1.00", marketCap: "184000000000", change24h: "0.01" },
  { symbol: "XRP", name: "XRP", price: "2.18", marketCap: "126000000000", change24h: "-0.92" },
  { symbol: "BNB", name: "BNB", price: "905.40", marketCap: "126000000000", change24h: "0.47" },
  { symbol: "SOL", name: "Solana", price: "182.70", marketCap: "99000000000", change24h: "3.12" },
  { symbol: "USDC", name: "USD Coin", price: "1.00", marketCap: "75000000000", change24h: "0.00" },
  { symbol: "DOGE", name: "Dogecoin", price: "0.19", marketCap: "28000000000", change24h: "-1.46" },
];

// Whole UTC days keep relative seeds on clean boundaries.
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

export interface SeedFile<I, T> {
  slug: string;
  item: I;
  texts: Partial<Record<string, T>> & { en: T };
}

/** One airdrop as of `now`: days become instants, every written language a translation. */
export function airdropFromFiles(
  file: SeedFile<AirdropItemFile, AirdropTextFile>,
  now: number,
): AirdropInput {
  const { item, texts } = file;
  const base = dayStart(now);
  const at = (d: number | null) => (d === null ? null : base + d * DAY);
  const listed = item.days.listing !== null && item.days.listing <= 0;
  const translations: Record<string, AirdropTextFile> = {};
  for (const [lang, text] of Object.entries(texts)) if (lang !== "en" && text) translations[lang] = text;
  return airdropInputSchema.parse({
    slug: file.slug,
    name: item.name,
    ticker: item.ticker,
    chain: item.chain,
    type: item.type,
    requirements: item.requirements,
    marketSymbol: listed ? `${item.ticker}USDT` : "",
    estValue: item.estValue,
    seedPrice: item.seedPrice,
    predictedPrice: item.predictedPrice,
    marketCap: item.marketCap,
    listingAt: at(item.days.listing),
    startAt: at(item.days.start),
    endAt: at(item.days.end),
    claimAt: at(item.days.claim),
    websiteUrl: item.links.website,
    whitepaperUrl: item.links.whitepaper,
    discordUrl: item.links.discord,
    xUrl: item.links.x,
    ...texts.en,
    published: true,
    translations,
  });
}

export interface AirdropLibraryFiles {
  airdrops: SeedFile<AirdropItemFile, AirdropTextFile>[];
  news: SeedFile<AirdropNewsItemFile, AirdropNewsTextFile>[];
  /** The library FAQ per written language. */
  homeFaq: Partial<Record<string, FaqItem[]>>;
}

/**
 * Writes the airdrop library from the content files as of `now` (tests pass a fixed
 * instant); existing slugs are left alone (ON CONFLICT DO NOTHING). Airdrops are written
 * most popular first, so the editorial order survives as the id order.
 */
export async function seedAirdropLibrary(
  tx: Queryable,
  texts: AirdropTexts,
  files: AirdropLibraryFiles,
  now: number,
): Promise<void> {
  const byPopularity = [...files.airdrops].sort((a, b) => b.item.popularity - a.item.popularity);
  for (const a of byPopularity)
    await saveAirdrop(tx, texts, sanitizeAirdropInput(airdropFromFiles(a, now)), now, "insert-only");
  for (const n of files.news) {
    const translations: Record<string, AirdropNewsTextFile> = {};
    for (const [lang, text] of Object.entries(n.texts)) if (lang !== "en" && text) translations[lang] = text;
    const input = airdropNewsInputSchema.parse({
      slug: n.slug,
      airdropSlug: n.item.airdropSlug,
      ...n.texts.en,
      publishedAt: dayStart(now) - n.item.daysAgo * DAY + 9 * 3600_000,
      translations,
    });
    await saveNews(tx, texts, sanitizeNewsInput(input), now, "insert-only");
  }
  for (const [locale, items] of Object.entries(files.homeFaq))
    if (items) await texts.saveFaq(tx, HOME_FAQ_KEY, locale, items);
  for (const coin of COINS) await saveCoin(tx, coin, now);
}
