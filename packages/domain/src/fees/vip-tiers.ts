/**
 * The VIP fee schedule shown on the /fee and /vip pages and charged by paper trading.
 * Rates are integer parts per million of the notional (1000 ppm = 0.1 %). A tier is
 * reached by 30-day spot volume OR by balance (both in USDT, whole units), as the large
 * exchanges publish theirs; paper accounts take the tier of the user's `vipLevel`.
 */
export interface VipTier {
  readonly level: number;
  readonly makerPpm: number;
  readonly takerPpm: number;
  /** USDT-M perpetual rates of the tier (Binance's USDT-M schedule: VIP 0 pays 0.02 % / 0.05 %). */
  readonly futuresMakerPpm: number;
  readonly futuresTakerPpm: number;
  /** 30-day trading volume in USDT (decimal string, whole units) that reaches the tier. */
  readonly minVolume30d: string;
  /** Total balance in USDT (decimal string, whole units) that reaches the tier. */
  readonly minBalance: string;
}

export const VIP_TIERS: readonly VipTier[] = Object.freeze([
  {
    level: 0,
    makerPpm: 1000,
    takerPpm: 1000,
    futuresMakerPpm: 200,
    futuresTakerPpm: 500,
    minVolume30d: "0",
    minBalance: "0",
  },
  {
    level: 1,
    makerPpm: 900,
    takerPpm: 1000,
    futuresMakerPpm: 160,
    futuresTakerPpm: 400,
    minVolume30d: "1000000",
    minBalance: "25000",
  },
  {
    level: 2,
    makerPpm: 800,
    takerPpm: 900,
    futuresMakerPpm: 140,
    futuresTakerPpm: 350,
    minVolume30d: "5000000",
    minBalance: "100000",
  },
  {
    level: 3,
    makerPpm: 700,
    takerPpm: 800,
    futuresMakerPpm: 120,
    futuresTakerPpm: 320,
    minVolume30d: "20000000",
    minBalance: "250000",
  },
  {
    level: 4,
    makerPpm: 600,
    takerPpm: 700,
    futuresMakerPpm: 100,
    futuresTakerPpm: 300,
    minVolume30d: "75000000",
    minBalance: "500000",
  },
  {
    level: 5,
    makerPpm: 500,
    takerPpm: 650,
    futuresMakerPpm: 80,
    futuresTakerPpm: 270,
    minVolume30d: "150000000",
    minBalance: "1000000",
  },
  {
    level: 6,
    makerPpm: 400,
    takerPpm: 600,
    futuresMakerPpm: 60,
    futuresTakerPpm: 250,
    minVolume30d: "400000000",
    minBalance: "1750000",
  },
  {
    level: 7,
    makerPpm: 350,
    takerPpm: 550,
    futuresMakerPpm: 40,
    futuresTakerPpm: 220,
    minVolume30d: "800000000",
    minBalance: "3000000",
  },
  {
    level: 8,
    makerPpm: 250,
    takerPpm: 500,
    futuresMakerPpm: 20,
    futuresTakerPpm: 200,
    minVolume30d: "2000000000",
    minBalance: "4500000",
  },
  {
    level: 9,
    makerPpm: 200,
    takerPpm: 400,
    futuresMakerPpm: 0,
    futuresTakerPpm: 170,
    minVolume30d: "4000000000",
    minBalance: "5500000",
  },
]);

/** The tier of a VIP level; levels outside 0-9 clamp to the nearest tier. */
export function vipTier(level: number): VipTier {
  const i = Number.isInteger(level) ? Math.min(Math.max(level, 0), VIP_TIERS.length - 1) : 0;
  const tier = VIP_TIERS[i] ?? VIP_TIERS[0];
  if (tier === undefined) throw new RangeError("VIP_TIERS is empty");
  return tier;
}

/** The USDT-M perpetual maker and taker rates (ppm) of a VIP level. */
export function futuresFeeRates(level: number): { makerPpm: number; takerPpm: number } {
  const t = vipTier(level);
  return { makerPpm: t.futuresMakerPpm, takerPpm: t.futuresTakerPpm };
}

/**
 * The fees an order pays: spot and margin by the VIP level of the order's user, USDT-M
 * futures by the paper account's (its user's level as last loaded, read at each fill).
 */
export interface FeeSchedule {
  /** The spot and margin tier of a VIP level. */
  spotTier(level: number): VipTier;
  /** The futures maker and taker rates (ppm) of a paper account. */
  futuresRates(accountId: number): { makerPpm: number; takerPpm: number };
}

/** The VIP table as a fee schedule, futures rates by `levelOfAccount` (default: every account VIP 0). */
export function vipFeeSchedule(levelOfAccount: (accountId: number) => number = () => 0): FeeSchedule {
  return { spotTier: vipTier, futuresRates: (accountId) => futuresFeeRates(levelOfAccount(accountId)) };
}

/** The highest tier whose volume or balance requirement the figures meet (whole USDT, bigint). */
export function tierFor(volume30d: bigint, balance: bigint): VipTier {
  let best = vipTier(0);
  for (const t of VIP_TIERS) {
    if (volume30d >= BigInt(t.minVolume30d) || balance >= BigInt(t.minBalance)) best = t;
  }
  return best;
}

/** A ppm rate as a percentage string: 1000 -> "0.1", 250 -> "0.025". */
export function ppmToPercent(ppm: number): string {
  const whole = Math.floor(ppm / 10_000);
  const frac = String(ppm % 10_000)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return frac === "" ? String(whole) : `${whole}.${frac}`;
}
