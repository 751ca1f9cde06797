import type { VipDetail, VipRecomputeResult } from "@meridian/contracts";
import {
  EntryKind,
  fromMinor,
  perpContract,
  ppmToPercent,
  tierFor,
  VIP_TIERS,
  vipTier,
} from "@meridian/domain";
import type { Db } from "../../platform/db/types.ts";
import type { AccountsService, UserRow } from "../accounts/index.ts";
import type { LedgerReader } from "../ledger/index.ts";
import type { PaperVenue } from "../paper/index.ts";
import { usdtPrices, usdtValue } from "../subaccounts/index.ts";

export const VIP_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** Journal entries that mint paper money into an account (its grant, top-ups, resets). */
const MINTED_KINDS = [EntryKind.Activate, EntryKind.TopUp, EntryKind.Reset];
const USDT_SCALE = 10n ** 8n;

/** USDT minor units per account group (a master and its subs). */
interface Figures {
  volume: bigint;
  balance: bigint;
}

export interface VipDeps {
  db: Db;
  accounts: AccountsService;
  /** Paper accounts, balances and minted sums (the ledger's read interface). */
  ledger: LedgerReader;
  /** The spot venue: prices and pairs. */
  venue: PaperVenue;
  /** The 30-day fills, each trading module's read of its own (passed by the root). */
  volumes: TradeVolumes;
  /** What margin accounts owe (margin's read of its committed loans, passed by the root). */
  debts: MarginDebts;
  now?: () => number;
}

/** Every committed margin debt: account, asset and principal plus interest in minor units. */
export type MarginDebts = () => Promise<readonly { accountId: number; asset: string; owed: bigint }[]>;

/** How VIP reads turnover: per account and symbol since a time, optionally for some accounts. */
export interface TradeVolumes {
  /** Spot and margin: quote turnover in minor units of the quote asset. */
  spot(
    since: number,
    accountIds?: readonly number[],
  ): Promise<readonly { accountId: number; symbol: string; quote: bigint }[]>;
  /** Futures: price ticks times lots. */
  futures(
    since: number,
    accountIds?: readonly number[],
  ): Promise<readonly { accountId: number; symbol: string; ticksLots: bigint }[]>;
}

/**
 * Moving VIP levels. The job measures, per master account (its sub-accounts counted with
 * it, as exchanges do), the 30-day paper trading volume (spot, margin and futures fills,
 * in USDT) and the balance (every paper wallet at the last prices, less margin debts and
 * less the paper money minted into it), takes the tier of the table on /vip/vipIntroduce that either figure
 * reaches, and sets `vipLevel` on the master and its subs. Spot and margin fees are read
 * from `vipLevel` at each order, so they follow at once.
 *
 * NOTE: reads balances, accounts and minted sums through the ledger's read interface,
 * the users through the accounts repository, the 30-day fills through each trading
 * module's read (`volumes`), and the margin debts through margin's read (`debts`): its
 * SQL names only its own table.
 */
export class VipService {
  readonly #d: VipDeps;
  readonly #now: () => number;
  /** The VIP level of each paper account whose user is above VIP 0 (futures fees read it at each fill). */
  #accountLevels = new Map<number, number>();

  constructor(deps: VipDeps) {
    this.#d = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** The VIP level of a paper account's user, as last loaded (at start and after each job). */
  levelOfAccount(accountId: number): number {
    return this.#accountLevels.get(accountId) ?? 0;
  }

  /** Reloads every account's level from `users.vipLevel`. */
  async loadLevels(): Promise<void> {
    const levelOf = await this.#d.accounts.repo.vipLevels();
    const levels = new Map<number, number>();
    if (levelOf.size > 0)
      for (const a of await this.#d.ledger.accountsOf()) {
        const level = levelOf.get(a.userId);
        if (level !== undefined) levels.set(a.id, level);
      }
    this.#accountLevels = levels;
  }

  /** Figures per master user id; `only` limits them to one master's group. */
  async measure(only?: string): Promise<Map<string, Figures>> {
    const since = this.#now() - VIP_WINDOW_MS;
    const prices = usdtPrices(this.#d.venue);
    const users = await this.#d.accounts.repo.vipMembers(only);
    const userMaster = new Map(users.map((u) => [u.id, u.master]));
    const masterOf = new Map<number, string>();
    for (const a of await this.#d.ledger.accountsOf(
      only === undefined ? undefined : [...userMaster.keys()],
    )) {
      const master = userMaster.get(a.userId);
      if (master !== undefined) masterOf.set(a.id, master);
    }
    const out = new Map<string, Figures>();
    const add = (accountId: number, key: "volume" | "balance", v: bigint) => {
      const master = masterOf.get(accountId);
      if (master === undefined || v === 0n) return;
      const f = out.get(master) ?? { volume: 0n, balance: 0n };
      f[key] += v;
      out.set(master, f);
    };
    const ids = [...masterOf.keys()];
    if (ids.length === 0) return out;
    const some = only === undefined ? undefined : ids;
    for (const r of await this.#d.volumes.spot(since, some)) {
      const quote = this.#d.venue.spec(r.symbol)?.quote;
      if (quote !== undefined) add(r.accountId, "volume", usdtValue(prices, quote, r.quote));
    }
    for (const r of await this.#d.volumes.futures(since, some)) {
      const c = perpContract(r.symbol);
      if (c !== undefined) add(r.accountId, "volume", r.ticksLots * c.minorPerTickLot);
    }
    for (const b of await this.#d.ledger.userBalanceRows()) {
      const id = Number(b.account.split(":")[1]);
      if (Number.isInteger(id) && masterOf.has(id)) add(id, "balance", usdtValue(prices, b.asset, b.amount));
    }
    // Paper money is free: what was minted into an account (its grant, top-ups, resets;
    // a reset's burn counts as money given back) is not "balance", or every new account
    // would start at VIP 2. So the balance is what the group holds beyond that.
    for (const m of await this.#d.ledger.userPostingSums(MINTED_KINDS)) {
      const id = Number(m.account.split(":")[1]);
      if (Number.isInteger(id) && masterOf.has(id)) add(id, "balance", -usdtValue(prices, m.asset, m.amount));
    }
    for (const d of await this.#d.debts())
      if (masterOf.has(d.accountId)) add(d.accountId, "balance", -usdtValue(prices, d.asset, d.owed));
    return out;
  }

  /** The daily job: every master's level from its figures, applied to it and its subs. */
  async recompute(): Promise<VipRecomputeResult> {
    const figures = await this.measure();
    const repo = this.#d.accounts.repo;
    const users = await repo.vipMembers();
    const now = this.#now();
    let changed = 0;
    const masters = users.filter((u) => u.parentId === null);
    for (const m of masters) {
      const f = figures.get(m.id) ?? { volume: 0n, balance: 0n };
      const level = tierFor(f.volume / USDT_SCALE, f.balance > 0n ? f.balance / USDT_SCALE : 0n).level;
      await this.#d.db.run(
        `INSERT INTO vip_status (user_id, level, volume_30d, balance, computed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET level = excluded.level, volume_30d = excluded.volume_30d,
           balance = excluded.balance, computed_at = excluded.computed_at`,
        [m.id, level, f.volume, f.balance, now],
      );
      for (const u of users) {
        if (u.master === m.id && u.vipLevel !== level) {
          await repo.setVipLevel(u.id, level, now);
          changed += 1;
        }
      }
    }
    await this.loadLevels();
    return { accounts: masters.length, changed };
  }

  /** What `/vip/detail` shows: the level in force, the figures so far (live) and the next tier. */
  async detail(user: UserRow): Promise<VipDetail> {
    const master = user.parent_id ?? user.id;
    const f = (await this.measure(master)).get(master) ?? { volume: 0n, balance: 0n };
    const status = await this.#d.db.get<{ computed_at: number | string }>(
      "SELECT computed_at FROM vip_status WHERE user_id = ?",
      [master],
    );
    const level = user.vip_level;
    const tier = vipTier(level);
    const next = VIP_TIERS.find((t) => t.level === level + 1);
    const volumeWhole = f.volume / USDT_SCALE;
    const balanceWhole = f.balance > 0n ? f.balance / USDT_SCALE : 0n;
    const need = (min: string, have: bigint) => {
      const d = BigInt(min) - have;
      return (d > 0n ? d : 0n).toString();
    };
    return {
      level,
      volume30d: fromMinor("USDT", f.volume),
      balance: fromMinor("USDT", f.balance > 0n ? f.balance : 0n),
      computedAt: status === undefined ? null : Number(status.computed_at),
      next:
        next === undefined
          ? null
          : {
              level: next.level,
              minVolume30d: next.minVolume30d,
              minBalance: next.minBalance,
              volumeNeeded: need(next.minVolume30d, volumeWhole),
              balanceNeeded: need(next.minBalance, balanceWhole),
            },
      makerRate: ppmToPercent(tier.makerPpm),
      takerRate: ppmToPercent(tier.takerPpm),
    };
  }
}

/** Milliseconds from `now` to the next 00:00 UTC. */
export function msToNextUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now;
}
