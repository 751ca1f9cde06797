import type {
  MarginAccountModeValue,
  MarginAccountView,
  MarginAssetView,
  MarginLevelStatus,
  MarginOrder,
  MarginRecord,
  MarginTrade,
  MaxAmount,
} from "@meridian/contracts";
import {
  type AssetPrices,
  fromMinor,
  holdingsOf,
  isolatedLiquidationPrice,
  LIQUIDATION_MARGIN_LEVEL_PPM,
  leverageOf,
  type MarginAccount,
  marginLevelPpm,
  totalAssetValue,
  totalDebtValue,
} from "@meridian/domain";
import {
  type OrderRow,
  type PaperVenue,
  presentOrder as presentPaperOrder,
  presentTrade as presentPaperTrade,
  type TradeRow,
} from "../paper/index.ts";
import type { RecordRow } from "./repo.ts";

/** Margin call at or below 1.3 (ppm). */
export const MARGIN_CALL_LEVEL_PPM = 1_300_000n;

const modeOf = (wallet: string): MarginAccountModeValue => (wallet === "isolated" ? "isolated" : "cross");

export function presentOrder(venue: PaperVenue, o: OrderRow): MarginOrder {
  const sideEffect = o.sideEffect;
  return {
    ...presentPaperOrder(venue, o),
    mode: modeOf(o.wallet),
    sideEffectType:
      sideEffect === "MARGIN_BUY" || sideEffect === "AUTO_REPAY" ? sideEffect : "NO_SIDE_EFFECT",
  };
}

export function presentTrade(venue: PaperVenue, t: TradeRow): MarginTrade {
  return { ...presentPaperTrade(venue, t), mode: modeOf(t.wallet) };
}

export function presentRecord(r: RecordRow): MarginRecord {
  return {
    id: r.id,
    type: r.type,
    mode: r.mode,
    symbol: r.symbol,
    asset: r.asset,
    amount: fromMinor(r.asset, r.amount),
    interest: r.interest === null ? null : fromMinor(r.asset, r.interest),
    principal: r.principal === null ? null : fromMinor(r.asset, r.principal),
    time: r.createdAt,
  };
}

export const maxAmount = (asset: string, amount: bigint): MaxAmount => ({
  asset,
  amount: fromMinor(asset, amount),
});

/** A ppm level as a decimal with at least 2 decimals ("1.5" -> "1.50", 1,348,662 -> "1.348662"). */
export function levelText(ppm: bigint): string {
  const whole = ppm / 1_000_000n;
  let frac = (ppm % 1_000_000n).toString().padStart(6, "0");
  while (frac.length > 2 && frac.endsWith("0")) frac = frac.slice(0, -1);
  return `${whole}.${frac}`;
}

export function levelStatus(ppm: bigint | null): MarginLevelStatus {
  if (ppm === null) return "NORMAL";
  if (ppm < LIQUIDATION_MARGIN_LEVEL_PPM) return "FORCE_LIQUIDATION";
  if (ppm <= MARGIN_CALL_LEVEL_PPM) return "MARGIN_CALL";
  return "NORMAL";
}

/**
 * One margin account as the contract shows it. `shown` lists the assets to show even at
 * zero (an isolated account's base and quote).
 */
export function presentAccount(
  a: MarginAccount,
  prices: AssetPrices,
  shown: readonly string[],
  base: string | null,
): MarginAccountView {
  const level = marginLevelPpm(a, prices);
  const assets = new Set<string>(shown);
  for (const k of holdingsOf(a).keys()) assets.add(k);
  for (const k of a.loans.keys()) assets.add(k);
  const rows: MarginAssetView[] = [...assets].sort().map((asset) => {
    const free = a.assets.get(asset) ?? 0n;
    const locked = a.locked?.get(asset) ?? 0n;
    const loan = a.loans.get(asset);
    const borrowed = loan?.principal ?? 0n;
    const interest = loan?.interest ?? 0n;
    return {
      asset,
      free: fromMinor(asset, free),
      locked: fromMinor(asset, locked),
      borrowed: fromMinor(asset, borrowed),
      interest: fromMinor(asset, interest),
      netAsset: fromMinor(asset, free + locked - borrowed - interest),
    };
  });
  const totalAsset = totalAssetValue(a, prices);
  const totalDebt = totalDebtValue(a, prices);
  const liq = a.mode === "isolated" && base !== null ? isolatedLiquidationPrice(a, base) : null;
  return {
    mode: a.mode,
    symbol: a.mode === "isolated" ? (a.pair ?? null) : null,
    leverage: leverageOf(a),
    marginLevel: level === null ? null : levelText(level),
    status: levelStatus(level),
    totalAsset: fromMinor("USDT", totalAsset),
    totalDebt: fromMinor("USDT", totalDebt),
    netAsset: fromMinor("USDT", totalAsset - totalDebt),
    liquidationPrice: liq === null ? null : fromMinor("USDT", liq),
    assets: rows,
  };
}
