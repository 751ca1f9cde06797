import { type Posting, SystemAccount } from "./ledger.ts";

/**
 * A user's statement (the /transac page) read from the journal, generically: every entry
 * that posts to one of the user's `user:<id>:...` accounts becomes one line per wallet and
 * asset with the net amount the entry moved there, so a new kind of entry (sub-account
 * transfers, anything later) shows up with its kind as its type and no change here.
 *
 * - Wallets: `available`/`held` are the spot wallet, `futures` and `futures:<SYM>:<SIDE>`
 *   the futures wallet, `margin`(`:held`) cross margin, `margin:<PAIR>`(`:held`) isolated
 *   margin of that pair; any other `user:<id>:<name>...` is wallet `<name>`.
 * - Moves inside one wallet (holds, releases, isolated margin set aside) net to zero and
 *   are not lines.
 * - Fees: when the entry has one user, what it paid to `system:fees` becomes its own
 *   `fee` line (in the wallet that paid), taken out of the trade's line. With two users
 *   (they traded with each other) the fee stays inside each trade line: the journal
 *   keeps one fee posting for both.
 * - A futures trade's remaining amount is its realised PnL (`realised_pnl`).
 */

export interface StatementLine {
  readonly entryId: number;
  readonly time: number;
  /** The entry kind, renamed where a page shows a different word (see `lineType`). */
  readonly type: string;
  readonly wallet: string;
  /** Isolated margin pair, when the wallet is isolated margin. */
  readonly symbol: string | null;
  readonly asset: string;
  /** Minor units, signed: positive credits the user. */
  readonly amount: bigint;
}

export interface StatementEntry {
  readonly id: number;
  readonly kind: string;
  readonly time: number;
  readonly postings: readonly Posting[];
}

/** Types a line may carry besides any future entry kind; the filters list these. */
export const STATEMENT_TYPES = [
  "topup",
  "reset",
  "transfer",
  "trade",
  "fee",
  "funding",
  "interest",
  "borrow",
  "repay",
  "liquidation",
  "realised_pnl",
] as const;

/** Journal kinds each line type comes from (a filter on a type reads only these entries). */
export const STATEMENT_KINDS_OF: Readonly<Record<string, readonly string[]>> = {
  topup: ["topup", "activate"],
  fee: ["trade", "futures-trade"],
  realised_pnl: ["futures-trade"],
};

/** Kinds that never reach a statement: moves inside a wallet. */
export const STATEMENT_SKIPPED_KINDS: readonly string[] = ["hold", "release"];

function lineType(kind: string): string {
  if (kind === "activate") return "topup";
  if (kind === "futures-trade") return "realised_pnl";
  return kind;
}

/** Wallet (and isolated pair) of a user ledger account's tail after `user:<id>:`. */
export function walletOfTail(tail: string): { wallet: string; symbol: string | null } {
  const parts = tail.split(":");
  const head = parts[0] ?? "";
  if (head === "available" || head === "held") return { wallet: "spot", symbol: null };
  if (head === "futures") return { wallet: "futures", symbol: null };
  if (head === "margin") {
    const pair = parts[1];
    return pair === undefined || pair === "held"
      ? { wallet: "cross", symbol: null }
      : { wallet: "isolated", symbol: pair };
  }
  return { wallet: head, symbol: null };
}

/** The lines of one entry for the user with paper account `accountId`. */
export function statementLines(accountId: number, entry: StatementEntry): StatementLine[] {
  const prefix = `user:${accountId}:`;
  const nets = new Map<string, { wallet: string; symbol: string | null; asset: string; amount: bigint }>();
  const users = new Set<string>();
  let fees: Posting[] = [];
  for (const p of entry.postings) {
    if (p.account.startsWith("user:")) users.add(p.account.slice(0, p.account.indexOf(":", 5)));
    if (p.account === SystemAccount.Fees) fees = [...fees, p];
    if (!p.account.startsWith(prefix)) continue;
    const { wallet, symbol } = walletOfTail(p.account.slice(prefix.length));
    const key = `${wallet}\n${symbol ?? ""}\n${p.asset}`;
    const prev = nets.get(key);
    nets.set(key, { wallet, symbol, asset: p.asset, amount: (prev?.amount ?? 0n) + p.amount });
  }
  const lines: StatementLine[] = [];
  const type = lineType(entry.kind);
  const feeOwn = users.size === 1;
  for (const n of nets.values()) {
    let amount = n.amount;
    if (feeOwn && (entry.kind === "trade" || entry.kind === "futures-trade")) {
      const fee = fees.filter((f) => f.asset === n.asset).reduce((s, f) => s + f.amount, 0n);
      // A trade moves the fee asset in one wallet of the user: that wallet paid it.
      if (fee !== 0n) {
        fees = fees.filter((f) => f.asset !== n.asset);
        amount += fee;
        lines.push({
          entryId: entry.id,
          time: entry.time,
          type: "fee",
          wallet: n.wallet,
          symbol: n.symbol,
          asset: n.asset,
          amount: -fee,
        });
      }
    }
    if (amount !== 0n) {
      lines.push({
        entryId: entry.id,
        time: entry.time,
        type,
        wallet: n.wallet,
        symbol: n.symbol,
        asset: n.asset,
        amount,
      });
    }
  }
  return lines;
}
