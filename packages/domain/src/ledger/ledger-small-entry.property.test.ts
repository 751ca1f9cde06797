import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkEntry, EntryKind, Ledger, type LedgerRefusal, mergePostings, type Posting } from "./ledger.ts";

/** The Map-based definitions the short-entry scans replace (they must agree on every entry). */
function referenceMerge(postings: readonly Posting[]): Posting[] {
  const order: string[] = [];
  const sums = new Map<string, Posting>();
  for (const p of postings) {
    const key = `${p.account}\u0000${p.asset}`;
    const prev = sums.get(key);
    if (prev === undefined) order.push(key);
    sums.set(key, { account: p.account, asset: p.asset, amount: (prev?.amount ?? 0n) + p.amount });
  }
  return order.map((k) => sums.get(k) as Posting).filter((p) => p.amount !== 0n);
}

function referenceCheck(balances: Ledger, postings: readonly Posting[]): LedgerRefusal | null {
  if (postings.length === 0) return { code: "LEDGER_EMPTY", account: "", asset: "", amount: 0n };
  const sums = new Map<string, bigint>();
  for (const p of postings) {
    if (p.amount === 0n) return { code: "LEDGER_EMPTY", account: p.account, asset: p.asset, amount: 0n };
    sums.set(p.asset, (sums.get(p.asset) ?? 0n) + p.amount);
  }
  for (const [asset, sum] of sums)
    if (sum !== 0n) return { code: "LEDGER_UNBALANCED", account: "", asset, amount: sum };
  const after = new Map<string, bigint>();
  for (const p of postings) {
    const key = `${p.account}\u0000${p.asset}`;
    const next = (after.get(key) ?? balances.balance(p.account, p.asset)) + p.amount;
    after.set(key, next);
    if (next < 0n && !p.account.startsWith("system:"))
      return { code: "LEDGER_INSUFFICIENT", account: p.account, asset: p.asset, amount: next };
  }
  return null;
}

const account = fc.constantFrom(
  "user:1:available",
  "user:1:held",
  "user:2:available",
  "system:fees",
  "system:maker",
);
const asset = fc.constantFrom("USDT", "BTC", "ETH");
const posting = fc.record({ account, asset, amount: fc.bigInt({ min: -50n, max: 50n }) });
/** Balanced pairs (one account pays another), so entries get past the sum check to the balance check. */
const transfers = fc
  .array(fc.record({ from: account, to: account, asset, amount: fc.bigInt({ min: 1n, max: 50n }) }), {
    maxLength: 12,
  })
  .map((ts) =>
    ts.flatMap((t) => [
      { account: t.from, asset: t.asset, amount: -t.amount },
      { account: t.to, asset: t.asset, amount: t.amount },
    ]),
  );
// Short entries take the scans, long ones (over 16 postings) the Map: both are covered.
const postings = fc.oneof(fc.array(posting, { minLength: 0, maxLength: 24 }), transfers);
const funded = fc.array(
  fc.record({
    account: fc.constantFrom("user:1:available", "user:1:held", "user:2:available"),
    asset,
    amount: fc.bigInt({ min: 1n, max: 60n }),
  }),
  { maxLength: 6 },
);

describe("ledger entries, short and long", () => {
  it("merges postings exactly as the per-key sum in first-seen order", () => {
    fc.assert(
      fc.property(postings, (ps) => {
        expect(mergePostings(ps)).toEqual(referenceMerge(ps));
      }),
    );
  });

  it("checks and applies an entry exactly as the per-key running balances say", () => {
    fc.assert(
      fc.property(funded, postings, (start, ps) => {
        const ledger = new Ledger();
        for (const f of start)
          ledger.apply({
            kind: EntryKind.TopUp,
            postings: [{ account: "system:mint", asset: f.asset, amount: -f.amount }, { ...f }],
          });
        const entry = { kind: EntryKind.Trade, postings: ps };
        const expected = referenceCheck(ledger, ps);
        expect(ledger.check(entry)).toEqual(expected);
        if (expected === null || expected.code !== "LEDGER_INSUFFICIENT") {
          const own = checkEntry(entry);
          expect(own === null ? null : own.code).toBe(expected === null ? null : expected.code);
        }
      }),
    );
  });
});
