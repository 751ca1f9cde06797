/**
 * The paper ledger: double-entry journal entries over accounts per asset, amounts in
 * bigint minor units (see assets.ts). Pure: the service persists entries and postings
 * and keeps one `Ledger` in memory as the authority for balance checks.
 *
 * Accounts are strings:
 * - `user:<id>:available` and `user:<id>:held` (funds held for open orders), per paper
 *   account id; these never go negative;
 * - `system:mint` (the paper treasury every balance is minted from and returned to on
 *   reset), `system:fees` (fee income), `system:maker` (the market maker's effectively
 *   unlimited inventory); these may go negative.
 *
 * Every entry's postings sum to zero per asset, so the sum of all balances of an asset
 * is always zero, and a balance always equals the sum of its postings in the journal.
 */

export type LedgerAccount = string;

export const SystemAccount = {
  Mint: "system:mint",
  Fees: "system:fees",
  Maker: "system:maker",
} as const;
export type SystemAccount = (typeof SystemAccount)[keyof typeof SystemAccount];

export const availableOf = (accountId: number): LedgerAccount => `user:${accountId}:available`;
export const heldOf = (accountId: number): LedgerAccount => `user:${accountId}:held`;
export const isSystemAccount = (account: LedgerAccount): boolean => account.startsWith("system:");

/**
 * Where an order's funds live: the free account it holds from and is paid into, and the
 * account its hold sits in. Spot orders use `user:<id>:available` / `user:<id>:held`;
 * margin orders their margin account (see derivatives/accounts.ts `marginWalletOf`).
 */
export interface Wallet {
  readonly available: LedgerAccount;
  readonly held: LedgerAccount;
}

export const spotWallet = (accountId: number): Wallet => ({
  available: availableOf(accountId),
  held: heldOf(accountId),
});

/** Why an entry exists; stored with it. */
export const EntryKind = {
  Activate: "activate",
  TopUp: "topup",
  Hold: "hold",
  Release: "release",
  Trade: "trade",
  Reset: "reset",
  /** Between a user's own wallets (spot, futures, margin). Derivatives and margin kinds: see derivatives/. */
  Transfer: "transfer",
  /** Between a master account and one of its sub-accounts, the same wallet type on both sides. */
  SubTransfer: "sub-transfer",
  FuturesTrade: "futures-trade",
  Funding: "funding",
  Liquidation: "liquidation",
  Borrow: "borrow",
  Repay: "repay",
  Interest: "interest",
} as const;
export type EntryKind = (typeof EntryKind)[keyof typeof EntryKind];

/**
 * Moves `amount` of `asset` from one paper account's wallet to another's (a master and its
 * sub-account; `from` and `to` are the same wallet type, e.g. both `user:<id>:available`).
 */
export function subTransferEntry(
  from: LedgerAccount,
  to: LedgerAccount,
  asset: string,
  amount: bigint,
): JournalEntry {
  if (amount <= 0n) throw new RangeError("transfer amount must be positive");
  if (from === to) throw new RangeError("transfer between the same account");
  return {
    kind: EntryKind.SubTransfer,
    postings: [
      { account: from, asset, amount: -amount },
      { account: to, asset, amount },
    ],
  };
}

export interface Posting {
  readonly account: LedgerAccount;
  readonly asset: string;
  /** Positive credits the account, negative debits it. */
  readonly amount: bigint;
}

export interface JournalEntry {
  readonly kind: EntryKind;
  readonly postings: readonly Posting[];
}

export const LedgerCode = {
  UNBALANCED: "LEDGER_UNBALANCED",
  INSUFFICIENT: "LEDGER_INSUFFICIENT",
  EMPTY: "LEDGER_EMPTY",
} as const;
export type LedgerCode = (typeof LedgerCode)[keyof typeof LedgerCode];

export interface LedgerRefusal {
  readonly code: LedgerCode;
  readonly account: LedgerAccount;
  readonly asset: string;
  /** For INSUFFICIENT: the balance the entry would have left; for UNBALANCED: the per-asset sum. */
  readonly amount: bigint;
}

/**
 * Entries up to this many postings are checked and merged by scanning the postings
 * themselves; a Map keyed by `account + asset` strings allocated about 1.5 KB per order
 * in the paper engine (every order posts three to four such entries). Longer ones
 * (a restart's balances, a reset) keep the Map.
 */
const SMALL_ENTRY = 16;

/** Checks an entry on its own: non-empty, every posting non-zero, zero sum per asset. */
export function checkEntry(entry: JournalEntry): LedgerRefusal | null {
  const postings = entry.postings;
  if (postings.length === 0) return { code: LedgerCode.EMPTY, account: "", asset: "", amount: 0n };
  for (const p of postings) {
    if (p.amount === 0n) return { code: LedgerCode.EMPTY, account: p.account, asset: p.asset, amount: 0n };
  }
  if (postings.length > SMALL_ENTRY) return unbalancedByMap(postings);
  // Per asset in first-seen order, as the Map would list them.
  for (let i = 0; i < postings.length; i++) {
    const asset = (postings[i] as Posting).asset;
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = (postings[j] as Posting).asset === asset;
    if (seen) continue;
    let sum = 0n;
    for (let j = i; j < postings.length; j++) {
      const q = postings[j] as Posting;
      if (q.asset === asset) sum += q.amount;
    }
    if (sum !== 0n) return { code: LedgerCode.UNBALANCED, account: "", asset, amount: sum };
  }
  return null;
}

function unbalancedByMap(postings: readonly Posting[]): LedgerRefusal | null {
  const sums = new Map<string, bigint>();
  for (const p of postings) sums.set(p.asset, (sums.get(p.asset) ?? 0n) + p.amount);
  for (const [asset, sum] of sums) {
    if (sum !== 0n) return { code: LedgerCode.UNBALANCED, account: "", asset, amount: sum };
  }
  return null;
}

/** Balances per account and asset, changed only by whole journal entries. */
export class Ledger {
  private readonly balances = new Map<LedgerAccount, Map<string, bigint>>();

  balance(account: LedgerAccount, asset: string): bigint {
    return this.balances.get(account)?.get(asset) ?? 0n;
  }

  /** Every non-zero balance of an account, by asset. */
  balancesOf(account: LedgerAccount): ReadonlyMap<string, bigint> {
    return this.balances.get(account) ?? new Map();
  }

  /** Every account with its non-zero balances. */
  entries(): IterableIterator<[LedgerAccount, ReadonlyMap<string, bigint>]> {
    return this.balances.entries();
  }

  /** What the entry would be refused for, or null when `apply` would accept it. */
  check(entry: JournalEntry): LedgerRefusal | null {
    const own = checkEntry(entry);
    if (own !== null) return own;
    const postings = entry.postings;
    if (postings.length <= SMALL_ENTRY) {
      // The balance after each posting: the stored one plus this entry's postings so far.
      for (let i = 0; i < postings.length; i++) {
        const p = postings[i] as Posting;
        if (isSystemAccount(p.account)) continue;
        let next = this.balance(p.account, p.asset);
        for (let j = 0; j <= i; j++) {
          const q = postings[j] as Posting;
          if (q.account === p.account && q.asset === p.asset) next += q.amount;
        }
        if (next < 0n)
          return { code: LedgerCode.INSUFFICIENT, account: p.account, asset: p.asset, amount: next };
      }
      return null;
    }
    const after = new Map<string, bigint>();
    for (const p of postings) {
      const key = `${p.account}\u0000${p.asset}`;
      const next = (after.get(key) ?? this.balance(p.account, p.asset)) + p.amount;
      after.set(key, next);
      if (next < 0n && !isSystemAccount(p.account)) {
        return { code: LedgerCode.INSUFFICIENT, account: p.account, asset: p.asset, amount: next };
      }
    }
    return null;
  }

  /** Applies the whole entry, or nothing: the refusal comes back as data. */
  apply(entry: JournalEntry): LedgerRefusal | null {
    const refusal = this.check(entry);
    if (refusal !== null) return refusal;
    for (const p of entry.postings) this.add(p.account, p.asset, p.amount);
    return null;
  }

  private add(account: LedgerAccount, asset: string, amount: bigint): void {
    let assets = this.balances.get(account);
    if (assets === undefined) {
      assets = new Map();
      this.balances.set(account, assets);
    }
    const next = (assets.get(asset) ?? 0n) + amount;
    if (next === 0n) assets.delete(asset);
    else assets.set(asset, next);
    if (assets.size === 0) this.balances.delete(account);
  }

  /** Sum of every account's balance of `asset` (always zero for a consistent ledger). */
  total(asset: string): bigint {
    let sum = 0n;
    for (const assets of this.balances.values()) sum += assets.get(asset) ?? 0n;
    return sum;
  }

  /**
   * A ledger holding stored balances (one per account and asset), as after a restart;
   * null when they do not sum to zero per asset or a user balance is negative.
   */
  static fromBalances(rows: Iterable<Posting>): Ledger | null {
    const ledger = new Ledger();
    const postings = [...rows].filter((p) => p.amount !== 0n);
    if (postings.length === 0) return ledger;
    return ledger.apply({ kind: EntryKind.Activate, postings }) === null ? ledger : null;
  }

  /** A ledger rebuilt from a journal; entries it refuses are skipped and reported. */
  static replay(entries: Iterable<JournalEntry>): { ledger: Ledger; refused: number } {
    const ledger = new Ledger();
    let refused = 0;
    for (const e of entries) if (ledger.apply(e) !== null) refused++;
    return { ledger, refused };
  }

  /** True when both ledgers hold the same non-zero balances. */
  equals(other: Ledger): boolean {
    const count = (l: Ledger) => {
      let n = 0;
      for (const assets of l.balances.values()) n += assets.size;
      return n;
    };
    if (count(this) !== count(other)) return false;
    for (const [account, assets] of this.balances) {
      for (const [asset, amount] of assets) if (other.balance(account, asset) !== amount) return false;
    }
    return true;
  }
}

// ---- entry builders -----------------------------------------------------------

export interface Amount {
  readonly asset: string;
  readonly amount: bigint;
}

/** Paper money from the treasury into a user's available balance (activation, top-up, reset). */
export function mintEntry(kind: EntryKind, accountId: number, amounts: readonly Amount[]): JournalEntry {
  const postings: Posting[] = [];
  for (const a of amounts) {
    if (a.amount === 0n) continue;
    postings.push({ account: SystemAccount.Mint, asset: a.asset, amount: -a.amount });
    postings.push({ account: availableOf(accountId), asset: a.asset, amount: a.amount });
  }
  return { kind, postings };
}

/** Everything a user holds back to the treasury (reset; holds must be released first). */
export function burnEntry(accountId: number, balances: ReadonlyMap<string, bigint>): JournalEntry {
  const postings: Posting[] = [];
  for (const [asset, amount] of balances) {
    if (amount === 0n) continue;
    postings.push({ account: availableOf(accountId), asset, amount: -amount });
    postings.push({ account: SystemAccount.Mint, asset, amount });
  }
  return { kind: EntryKind.Reset, postings };
}

/** Available -> held, for an order being placed (the spot wallet unless another is given). */
export function holdEntry(
  accountId: number,
  asset: string,
  amount: bigint,
  wallet: Wallet = spotWallet(accountId),
): JournalEntry {
  return {
    kind: EntryKind.Hold,
    postings: [
      { account: wallet.available, asset, amount: -amount },
      { account: wallet.held, asset, amount },
    ],
  };
}

/** Held -> available, for what an order no longer needs (cancel, expiry, completion). */
export function releaseEntry(
  accountId: number,
  asset: string,
  amount: bigint,
  wallet: Wallet = spotWallet(accountId),
): JournalEntry {
  return {
    kind: EntryKind.Release,
    postings: [
      { account: wallet.held, asset, amount: -amount },
      { account: wallet.available, asset, amount },
    ],
  };
}

/** One side of a trade: a user paying from held funds and paying a fee in the quote asset, or the maker. */
export type TradeParty =
  | { readonly kind: "user"; readonly accountId: number; readonly fee: bigint; readonly wallet?: Wallet }
  | { readonly kind: "maker" };

export interface TradeSettlement {
  readonly base: string;
  readonly quote: string;
  /** Base minor units changing hands. */
  readonly baseAmount: bigint;
  /** Quote minor units changing hands (price x quantity, before fees). */
  readonly quoteAmount: bigint;
  readonly buyer: TradeParty;
  readonly seller: TradeParty;
}

/**
 * A fill: the buyer pays quote (plus its fee) out of held funds and receives base into
 * available; the seller pays base out of held funds and receives quote minus its fee.
 * Fees are charged in the quote asset and go to `system:fees`; the maker pays none.
 */
export function tradeEntry(t: TradeSettlement): JournalEntry {
  const postings: Posting[] = [];
  const push = (account: LedgerAccount, asset: string, amount: bigint) => {
    if (amount !== 0n) postings.push({ account, asset, amount });
  };
  if (t.buyer.kind === "user") {
    const w = t.buyer.wallet ?? spotWallet(t.buyer.accountId);
    push(w.held, t.quote, -(t.quoteAmount + t.buyer.fee));
    push(w.available, t.base, t.baseAmount);
    push(SystemAccount.Fees, t.quote, t.buyer.fee);
  } else {
    push(SystemAccount.Maker, t.quote, -t.quoteAmount);
    push(SystemAccount.Maker, t.base, t.baseAmount);
  }
  if (t.seller.kind === "user") {
    const w = t.seller.wallet ?? spotWallet(t.seller.accountId);
    push(w.held, t.base, -t.baseAmount);
    push(w.available, t.quote, t.quoteAmount - t.seller.fee);
    push(SystemAccount.Fees, t.quote, t.seller.fee);
  } else {
    push(SystemAccount.Maker, t.base, -t.baseAmount);
    push(SystemAccount.Maker, t.quote, t.quoteAmount);
  }
  return { kind: EntryKind.Trade, postings: mergePostings(postings) };
}

/** Sums postings to the same account and asset (dropping zeros), keeping first-seen order. */
export function mergePostings(postings: readonly Posting[]): Posting[] {
  if (postings.length <= SMALL_ENTRY) {
    const out: Posting[] = [];
    for (const p of postings) {
      let k = 0;
      while (
        k < out.length &&
        ((out[k] as Posting).account !== p.account || (out[k] as Posting).asset !== p.asset)
      )
        k++;
      const prev = out[k];
      if (prev === undefined) out.push(p);
      else out[k] = { account: p.account, asset: p.asset, amount: prev.amount + p.amount };
    }
    let kept = 0;
    for (const p of out) if (p.amount !== 0n) out[kept++] = p;
    out.length = kept;
    return out;
  }
  const order: string[] = [];
  const sums = new Map<string, Posting>();
  for (const p of postings) {
    const key = `${p.account}\u0000${p.asset}`;
    const prev = sums.get(key);
    if (prev === undefined) order.push(key);
    sums.set(key, { account: p.account, asset: p.asset, amount: (prev?.amount ?? 0n) + p.amount });
  }
  const out: Posting[] = [];
  for (const key of order) {
    const p = sums.get(key);
    if (p !== undefined && p.amount !== 0n) out.push(p);
  }
  return out;
}

/**
 * Fee on a fill when the fee is charged on an order's running notional: the order has
 * paid `ceil(before x rate)` so far and owes `ceil(after x rate)` in all, so however an
 * order fills its total fee is the fee on its total, rounded up once.
 */
export function incrementalFee(before: bigint, after: bigint, ratePpm: number): bigint {
  const fee = (n: bigint) => (n * BigInt(ratePpm) + 999_999n) / 1_000_000n;
  return fee(after) - fee(before);
}
