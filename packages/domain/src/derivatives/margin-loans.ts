import { assetDecimals } from "../ledger/assets.ts";
import {
  availableOf,
  EntryKind,
  type JournalEntry,
  mergePostings,
  type Posting,
  SystemAccount,
} from "../ledger/ledger.ts";
import { crossMarginOf, DerivativesAccount, isolatedPairOf } from "./accounts.ts";
import { DerivativesCode, type DerivativesResult, refuse } from "./position.ts";
import { E8, PPM, USDT } from "./scales.ts";

/**
 * Margin borrowing for spot pairs (Binance cross and isolated margin), all amounts in
 * ledger minor units per asset, all values in USDT minor units.
 *
 * Debts are not ledger balances (user accounts never go negative): the lending pool
 * `system:lending` is debited on a borrow and again by each hour's interest (credited
 * to `system:interest`), and credited by repayments, so its balance is always minus
 * the sum of every outstanding principal and interest. Each account's `loans` carry its
 * share.
 */
export interface Loan {
  readonly principal: bigint;
  readonly interest: bigint;
}

export type MarginAccountMode = "cross" | "isolated";

export interface MarginAccount {
  readonly accountId: number;
  readonly mode: MarginAccountMode;
  /** Isolated only: the pair ("BTCUSDT"). */
  readonly pair?: string;
  /** Ledger balances of the margin account, by asset (free: what repays, transfers and orders use). */
  readonly assets: ReadonlyMap<string, bigint>;
  /**
   * Held for open margin orders (the wallet's `:held` account): still the account's
   * assets, so they count in its value and margin level, but they cannot be repaid,
   * transferred or borrowed against twice. Absent means nothing held.
   */
  readonly locked?: ReadonlyMap<string, bigint>;
  readonly loans: ReadonlyMap<string, Loan>;
}

/** Prices in USDT minor units per one whole unit of the asset (BTC at 97,000 -> 9_700_000_000_000n). */
export type AssetPrices = ReadonlyMap<string, bigint>;

/** Cross margin 3x, isolated 10x (Binance's classic account leverages). */
export const CROSS_MARGIN_LEVERAGE = 3;
export const ISOLATED_MARGIN_LEVERAGE = 10;
/** Forced liquidation below this margin level (ppm: 1.1). */
export const LIQUIDATION_MARGIN_LEVEL_PPM = 1_100_000n;
/** Transfers out must leave the margin level at or above 2. */
export const TRANSFER_OUT_MARGIN_LEVEL_PPM = 2_000_000n;
/** Liquidation fee on the debt value, to the insurance fund (ppm; 2 %). */
export const MARGIN_LIQUIDATION_FEE_PPM = 20_000n;

/**
 * Daily borrow rates, 1e-8 units (0.02 % = 20_000), illustrative of Binance's VIP 0
 * figures: stablecoins dearest, BTC cheapest.
 */
export const DAILY_INTEREST_E8: Readonly<Record<string, bigint>> = Object.freeze({
  USDT: 20_000n,
  BTC: 1_500n,
  ETH: 3_000n,
  BNB: 6_000n,
  SOL: 8_000n,
  XRP: 8_000n,
  DOGE: 8_000n,
  TRX: 10_000n,
  ADA: 10_000n,
  LINK: 10_000n,
  AVAX: 10_000n,
  TON: 12_000n,
  NOT: 15_000n,
  LTC: 10_000n,
});

export const marginAccountOf = (a: MarginAccount): string =>
  a.mode === "cross" ? crossMarginOf(a.accountId) : isolatedPairOf(a.accountId, a.pair ?? "");

export const leverageOf = (a: MarginAccount): number =>
  a.mode === "cross" ? CROSS_MARGIN_LEVERAGE : ISOLATED_MARGIN_LEVERAGE;

const scaleOf = (asset: string): bigint => {
  const d = assetDecimals(asset);
  if (d === undefined) throw new RangeError(`asset ${asset} is not carried by the ledger`);
  return 10n ** BigInt(d);
};

const priceOf = (prices: AssetPrices, asset: string): bigint => {
  if (asset === USDT) return 10n ** 8n;
  const p = prices.get(asset);
  if (p === undefined || p <= 0n) throw new RangeError(`no price for ${asset}`);
  return p;
};

/** Value of an amount held, rounded down: 0.5 BTC (50,000,000) at 97,000 -> 48,500 USDT. */
export function assetValue(prices: AssetPrices, asset: string, amount: bigint): bigint {
  return (amount * priceOf(prices, asset)) / scaleOf(asset);
}

/** Value of an amount owed, rounded up (valuations never favour the borrower). */
export function debtValue(prices: AssetPrices, asset: string, amount: bigint): bigint {
  const s = scaleOf(asset);
  return (amount * priceOf(prices, asset) + s - 1n) / s;
}

/** Free plus locked, per asset. */
export function holdingsOf(a: MarginAccount): Map<string, bigint> {
  const out = new Map(a.assets);
  for (const [asset, amount] of a.locked ?? []) out.set(asset, (out.get(asset) ?? 0n) + amount);
  return out;
}

export function totalAssetValue(a: MarginAccount, prices: AssetPrices): bigint {
  let v = 0n;
  for (const [asset, amount] of holdingsOf(a)) if (amount > 0n) v += assetValue(prices, asset, amount);
  return v;
}

export function totalDebtValue(a: MarginAccount, prices: AssetPrices): bigint {
  let v = 0n;
  for (const [asset, loan] of a.loans) v += debtValue(prices, asset, loan.principal + loan.interest);
  return v;
}

/**
 * Margin level in ppm, rounded down: total asset value / (total borrowed + interest);
 * null when nothing is owed (Binance shows 999). 1 BTC (97,000) + 10,000 USDT against a
 * 20,000 USDT loan with 5 USDT interest: 107,000 / 20,005 = 5.3486... -> 5,348,662 ppm.
 */
export function marginLevelPpm(a: MarginAccount, prices: AssetPrices): bigint | null {
  const debt = totalDebtValue(a, prices);
  if (debt === 0n) return null;
  return (totalAssetValue(a, prices) * PPM) / debt;
}

/**
 * Most of `asset` the account may borrow now, minor units, rounded down. With net equity
 * E = assets - debts and leverage L, debts may reach E x (L - 1) (so L x E of assets:
 * margin level L / (L - 1) at the limit, 1.5 for 3x, 1.11 for 10x):
 * max = (E x (L - 1) - debts) / price. 1,000 USDT in a cross account, no debt:
 * 1,000 x 2 = 2,000 USDT, or 0.02061855 BTC at 97,000.
 */
export function maxBorrowable(a: MarginAccount, asset: string, prices: AssetPrices): bigint {
  const assets = totalAssetValue(a, prices);
  const debts = totalDebtValue(a, prices);
  const room = (assets - debts) * BigInt(leverageOf(a) - 1) - debts;
  if (room <= 0n) return 0n;
  return (room * scaleOf(asset)) / priceOf(prices, asset);
}

const withBalance = (m: ReadonlyMap<string, bigint>, asset: string, delta: bigint): Map<string, bigint> => {
  const out = new Map(m);
  const next = (out.get(asset) ?? 0n) + delta;
  if (next === 0n) out.delete(asset);
  else out.set(asset, next);
  return out;
};

const withLoan = (m: ReadonlyMap<string, Loan>, asset: string, loan: Loan): Map<string, Loan> => {
  const out = new Map(m);
  if (loan.principal === 0n && loan.interest === 0n) out.delete(asset);
  else out.set(asset, loan);
  return out;
};

export interface MarginStep {
  readonly account: MarginAccount;
  readonly entry: JournalEntry;
}

/** Borrows up to `maxBorrowable`: lending pool -x, margin account +x, principal +x. */
export function borrow(
  a: MarginAccount,
  asset: string,
  amount: bigint,
  prices: AssetPrices,
): DerivativesResult<MarginStep> {
  const max = maxBorrowable(a, asset, prices);
  if (amount <= 0n || amount > max) return refuse(DerivativesCode.BORROW_EXCEEDS_MAX, { max: String(max) });
  const loan = a.loans.get(asset) ?? { principal: 0n, interest: 0n };
  return {
    ok: true,
    value: {
      account: {
        ...a,
        assets: withBalance(a.assets, asset, amount),
        loans: withLoan(a.loans, asset, { ...loan, principal: loan.principal + amount }),
      },
      entry: {
        kind: EntryKind.Borrow,
        postings: [
          { account: DerivativesAccount.Lending, asset, amount: -amount },
          { account: marginAccountOf(a), asset, amount },
        ],
      },
    },
  };
}

/**
 * One hour's interest on a principal at a daily rate, rounded up to a minor unit
 * (Binance charges hourly on the principal, no compounding): 10,000 USDT at 0.02 %/day
 * -> 10,000 x 0.0002 / 24 = 0.08333334 USDT (8,333,334 minor units).
 */
export function hourlyInterest(principal: bigint, dailyRateE8: bigint): bigint {
  if (principal <= 0n || dailyRateE8 <= 0n) return 0n;
  const den = 24n * E8;
  return (principal * dailyRateE8 + den - 1n) / den;
}

/** Accrues one hour on every loan: interest +x, `system:interest` +x, `system:lending` -x. Null entry when nothing accrues. */
export function accrueInterest(
  a: MarginAccount,
  rates: Readonly<Record<string, bigint>> = DAILY_INTEREST_E8,
): { account: MarginAccount; entry: JournalEntry | null } {
  let loans = new Map(a.loans);
  const postings: Posting[] = [];
  for (const [asset, loan] of a.loans) {
    const x = hourlyInterest(loan.principal, rates[asset] ?? 0n);
    if (x === 0n) continue;
    loans = withLoan(loans, asset, { ...loan, interest: loan.interest + x });
    postings.push({ account: DerivativesAccount.Interest, asset, amount: x });
    postings.push({ account: DerivativesAccount.Lending, asset, amount: -x });
  }
  return {
    account: { ...a, loans },
    entry: postings.length === 0 ? null : { kind: EntryKind.Interest, postings },
  };
}

/**
 * Repays `amount` of `asset` from the margin account, interest first, then principal
 * (Binance's order). More than the debt or the balance is refused.
 * Debt 1,000 principal + 3 interest, repay 500: interest 0, principal 503.
 */
export function repay(a: MarginAccount, asset: string, amount: bigint): DerivativesResult<MarginStep> {
  const loan = a.loans.get(asset) ?? { principal: 0n, interest: 0n };
  const owed = loan.principal + loan.interest;
  const have = a.assets.get(asset) ?? 0n;
  if (amount <= 0n || amount > owed || amount > have) {
    return refuse(DerivativesCode.REPAY_INVALID, { owed: String(owed), balance: String(have) });
  }
  const toInterest = amount < loan.interest ? amount : loan.interest;
  const next: Loan = {
    interest: loan.interest - toInterest,
    principal: loan.principal - (amount - toInterest),
  };
  return {
    ok: true,
    value: {
      account: { ...a, assets: withBalance(a.assets, asset, -amount), loans: withLoan(a.loans, asset, next) },
      entry: {
        kind: EntryKind.Repay,
        postings: [
          { account: marginAccountOf(a), asset, amount: -amount },
          { account: DerivativesAccount.Lending, asset, amount },
        ],
      },
    },
  };
}

/** Spot wallet -> margin account (always allowed; the ledger checks the spot balance). */
export function transferIn(a: MarginAccount, asset: string, amount: bigint): MarginStep {
  return {
    account: { ...a, assets: withBalance(a.assets, asset, amount) },
    entry: {
      kind: EntryKind.Transfer,
      postings: [
        { account: availableOf(a.accountId), asset, amount: -amount },
        { account: marginAccountOf(a), asset, amount },
      ],
    },
  };
}

/**
 * Margin account -> spot wallet, allowed only while the margin level after the transfer
 * stays >= 2 (any amount up to the balance when nothing is owed).
 */
export function transferOut(
  a: MarginAccount,
  asset: string,
  amount: bigint,
  prices: AssetPrices,
): DerivativesResult<MarginStep> {
  const have = a.assets.get(asset) ?? 0n;
  if (amount <= 0n || amount > have)
    return refuse(DerivativesCode.TRANSFER_BREAKS_LEVEL, { balance: String(have) });
  const after: MarginAccount = { ...a, assets: withBalance(a.assets, asset, -amount) };
  const level = marginLevelPpm(after, prices);
  if (level !== null && level < TRANSFER_OUT_MARGIN_LEVEL_PPM) {
    return refuse(DerivativesCode.TRANSFER_BREAKS_LEVEL, { level: String(level) });
  }
  return {
    ok: true,
    value: {
      account: after,
      entry: {
        kind: EntryKind.Transfer,
        postings: [
          { account: marginAccountOf(a), asset, amount: -amount },
          { account: availableOf(a.accountId), asset, amount },
        ],
      },
    },
  };
}

/**
 * Most of `asset` `transferOut` accepts now: the free balance when nothing is owed, else
 * the largest amount that keeps the margin level >= 2 (found by bisection on
 * `transferOut` itself, so the two never disagree about rounding).
 */
export function maxTransferOut(a: MarginAccount, asset: string, prices: AssetPrices): bigint {
  const have = a.assets.get(asset) ?? 0n;
  if (have <= 0n) return 0n;
  if (transferOut(a, asset, have, prices).ok) return have;
  let lo = 0n;
  let hi = have;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (transferOut(a, asset, mid, prices).ok) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Isolated accounts: the price of the base (USDT minor units per whole unit) at which
 * the margin level reaches 1.1, holding everything else fixed; null without debt, or
 * when no positive price can (the level rises with the price, or never reaches 1.1).
 * With base held qb and owed db, quote held qq and owed dq:
 * (qb x P + qq) = 1.1 x (db x P + dq)  ->  P = (1.1 dq - qq) / (qb - 1.1 db).
 * 1 BTC against 90,000 USDT owed: P = 99,000 USDT.
 */
export function isolatedLiquidationPrice(a: MarginAccount, base: string): bigint | null {
  const held = holdingsOf(a);
  const quote = USDT;
  const owed = (asset: string) => {
    const l = a.loans.get(asset);
    return l === undefined ? 0n : l.principal + l.interest;
  };
  const qb = held.get(base) ?? 0n;
  const qq = held.get(quote) ?? 0n;
  const db = owed(base);
  const dq = owed(quote);
  if (db === 0n && dq === 0n) return null;
  const L = LIQUIDATION_MARGIN_LEVEL_PPM;
  const num = (L * dq - PPM * qq) * scaleOf(base);
  const den = PPM * qb - L * db;
  if (den === 0n) return null;
  const p = num / den;
  return p > 0n ? p : null;
}

/** True when the account owes something and its margin level is below 1.1. */
export function needsForcedLiquidation(a: MarginAccount, prices: AssetPrices): boolean {
  const level = marginLevelPpm(a, prices);
  return level !== null && level < LIQUIDATION_MARGIN_LEVEL_PPM;
}

export interface MarginLiquidation {
  readonly account: MarginAccount;
  readonly entry: JournalEntry;
  /** USDT left to the trader (in the margin account). */
  readonly returned: bigint;
  /** Net to the insurance fund: the fee, or minus the shortfall when assets did not cover the debt. */
  readonly insurance: bigint;
}

/**
 * Forced liquidation: every asset is sold to `system:maker` at the prices (values rounded
 * down), every debt bought back from it and repaid to the pool (values rounded up); of
 * the equity A - D the insurance fund takes the fee (2 % of D) and the trader keeps the
 * rest in USDT. When A - D < fee the fund takes what is there, and when A < D it pays the
 * shortfall: the trader ends at zero, never below, and the pool is repaid in full.
 */
export function forcedLiquidation(
  a: MarginAccount,
  prices: AssetPrices,
  feePpm: bigint = MARGIN_LIQUIDATION_FEE_PPM,
): MarginLiquidation {
  for (const amount of a.locked?.values() ?? []) {
    if (amount !== 0n) throw new RangeError("cancel the account's open orders before liquidating it");
  }
  const acct = marginAccountOf(a);
  const postings: Posting[] = [];
  let assetsValue = 0n;
  let debtsValue = 0n;
  for (const [asset, amount] of a.assets) {
    if (amount <= 0n) continue;
    postings.push({ account: acct, asset, amount: -amount });
    const v = assetValue(prices, asset, amount);
    assetsValue += v;
    if (asset !== USDT) {
      postings.push({ account: SystemAccount.Maker, asset, amount });
      postings.push({ account: SystemAccount.Maker, asset: USDT, amount: -v });
    }
  }
  for (const [asset, loan] of a.loans) {
    const owed = loan.principal + loan.interest;
    if (owed === 0n) continue;
    postings.push({ account: DerivativesAccount.Lending, asset, amount: owed });
    const v = debtValue(prices, asset, owed);
    debtsValue += v;
    if (asset !== USDT) {
      postings.push({ account: SystemAccount.Maker, asset, amount: -owed });
      postings.push({ account: SystemAccount.Maker, asset: USDT, amount: v });
    }
  }
  // USDT: the trader's USDT was debited above and the USDT debt credited to the pool;
  // sum so far = -(A - D) once the maker's conversions are counted, so A - D is left to share.
  const equity = assetsValue - debtsValue;
  const fee = (debtsValue * feePpm) / PPM;
  const returned = equity > fee ? equity - fee : 0n;
  const insurance = equity - returned;
  postings.push({ account: acct, asset: USDT, amount: returned });
  postings.push({ account: DerivativesAccount.Insurance, asset: USDT, amount: insurance });
  return {
    account: {
      ...a,
      assets: returned > 0n ? new Map([[USDT, returned]]) : new Map(),
      loans: new Map(),
    },
    entry: { kind: EntryKind.Liquidation, postings: mergePostings(postings) },
    returned,
    insurance,
  };
}
