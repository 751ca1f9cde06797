import crypto from "node:crypto";
import {
  FUTURES_MARGIN_COINS,
  FuturesCode,
  MAX_SUB_ACCOUNTS,
  MarginCode,
  SUB_EMAIL_DOMAIN,
  type SubAccountView,
  SubCode,
  type SubListResult,
  type SubTransferDirection,
  type SubTransferView,
  type SubWalletBalance,
  type WalletValue,
} from "@meridian/contracts";
import {
  availableOf,
  crossMarginOf,
  fromMinor,
  futuresWalletOf,
  heldOf,
  isolatedPairOf,
  subTransferEntry,
  toMinor,
} from "@meridian/domain";
import { KeyedMutex } from "../../platform/db/index.ts";
import type { Db } from "../../platform/db/types.ts";
import { AppError } from "../../platform/errors.ts";
import { type AccountsService, hashPassword, type UserRow } from "../accounts/index.ts";
import type { FuturesService } from "../futures/index.ts";
import type { LedgerService, LedgerTx } from "../ledger/index.ts";
import type { MarginService } from "../margin/index.ts";
import type { PaperService } from "../paper/index.ts";
import { type UsdtPrices, usdtPrices, usdtValue } from "./prices.ts";

function fail(code: string, msg: string, data?: unknown): AppError {
  return new AppError(code, msg, { status: 200, ...(data === undefined ? {} : { data }) });
}

export interface SubTransferInput {
  subUserId: string;
  direction: SubTransferDirection;
  wallet: WalletValue;
  asset: string;
  amount: string;
  symbol?: string | undefined;
  /** Unique per master: sent again, the transfer is answered, not made again. */
  clientTransferId?: string | undefined;
}

interface TransferRow {
  id: number | string;
  sub_user_id: string;
  direction: string;
  wallet: string;
  symbol: string | null;
  asset: string;
  amount: number | string | bigint;
  client_transfer_id: string | null;
  created_at: number | string;
}

export interface SubAccountsDeps {
  db: Db;
  accounts: AccountsService;
  /** Paper accounts, balances and transfers between them. */
  ledger: LedgerService;
  /** The spot venue (prices of the wallets' assets). */
  paper: PaperService;
  futures: FuturesService | undefined;
  margin: MarginService | undefined;
  now?: () => number;
}

/**
 * Sub-accounts: a master makes, labels, freezes and funds them. Each sub is a user of its
 * own (so it has its own paper account, orders, positions and API keys) whose
 * `parent_id` names the master. Transfers move funds between the same wallet type of the
 * two paper accounts as one ledger entry of kind `sub-transfer`, through the paper writer
 * (and the futures or margin engine for those wallets, so their risk state follows).
 */
export class SubAccountsService {
  readonly #d: SubAccountsDeps;
  readonly #now: () => number;
  /** Transfers with the same client id run one after another (each looks for the one before). */
  readonly #transferIds = new KeyedMutex();

  constructor(deps: SubAccountsDeps) {
    this.#d = deps;
    this.#now = deps.now ?? Date.now;
  }

  #requireMaster(user: UserRow): void {
    if (user.parent_id !== null)
      throw fail(SubCode.NOT_MASTER, "A sub-account cannot manage sub-accounts; switch back first");
  }

  async #subOf(master: UserRow, subUserId: string): Promise<UserRow> {
    this.#requireMaster(master);
    const sub = await this.#d.accounts.repo.userById(subUserId);
    if (sub === undefined || sub.parent_id !== master.id)
      throw fail(SubCode.NOT_FOUND, "No such sub-account", { subUserId });
    return sub;
  }

  async create(master: UserRow, body: { name: string; label: string }): Promise<SubAccountView> {
    this.#requireMaster(master);
    const repo = this.#d.accounts.repo;
    if ((await repo.countSubUsers(master.id)) >= MAX_SUB_ACCOUNTS)
      throw fail(SubCode.LIMIT_REACHED, `At most ${MAX_SUB_ACCOUNTS} sub-accounts`, {
        max: MAX_SUB_ACCOUNTS,
      });
    const email = `${body.name}@${SUB_EMAIL_DOMAIN}`;
    // A sub never logs in by password (the master switches into it): a random one nobody knows.
    const passwordHash = await hashPassword(crypto.randomBytes(32).toString("base64url"));
    for (let i = 0; i < 5; i++) {
      const id = crypto.randomInt(1_000_000_000, 10_000_000_000).toString();
      const inserted = await repo.insertSubUser({
        id,
        email,
        passwordHash,
        parentId: master.id,
        label: body.label,
        now: this.#now(),
      });
      if (inserted) {
        await this.#d.ledger.accountFor(id, true);
        const sub = await repo.userById(id);
        if (sub === undefined) break;
        return this.#view(sub, usdtPrices(this.#d.paper.venue));
      }
      if ((await repo.userByEmail(email)) !== undefined)
        throw fail(SubCode.NAME_TAKEN, "That sub-account name is taken", { field: "name" });
    }
    throw new AppError("10500", "Could not allocate a user id", { status: 500 });
  }

  async list(master: UserRow): Promise<SubListResult> {
    this.#requireMaster(master);
    const prices = usdtPrices(this.#d.paper.venue);
    const subs = await this.#d.accounts.repo.subUsers(master.id);
    const views: SubAccountView[] = [];
    for (const s of subs) views.push(await this.#view(s, prices));
    return { max: MAX_SUB_ACCOUNTS, subs: views };
  }

  async freeze(master: UserRow, subUserId: string, frozen: boolean): Promise<SubAccountView> {
    const sub = await this.#subOf(master, subUserId);
    const now = this.#now();
    await this.#d.accounts.repo.setFrozen(sub.id, frozen, now);
    // A frozen sub's open sessions end at once (a master switched into it elsewhere).
    if (frozen) await this.#d.accounts.repo.revokeUserSessions(sub.id, "frozen", now);
    return this.#view({ ...sub, frozen: frozen ? 1 : 0 }, usdtPrices(this.#d.paper.venue));
  }

  async setLabel(master: UserRow, subUserId: string, label: string): Promise<SubAccountView> {
    const sub = await this.#subOf(master, subUserId);
    await this.#d.accounts.repo.setSubLabel(sub.id, label, this.#now());
    return this.#view({ ...sub, sub_label: label }, usdtPrices(this.#d.paper.venue));
  }

  /** The sub a master may switch into (not frozen). */
  async switchTarget(master: UserRow, subUserId: string): Promise<UserRow> {
    const sub = await this.#subOf(master, subUserId);
    if (sub.frozen === 1) throw fail(SubCode.FROZEN, "This sub-account is frozen", { subUserId });
    return sub;
  }

  /**
   * Moves funds between a master and one of its subs. With `clientTransferId`, transfers
   * with that id run one at a time and each first looks for the row the first one wrote
   * in its own commit: a retry answers that transfer and moves nothing.
   */
  async transfer(master: UserRow, body: SubTransferInput): Promise<SubTransferView> {
    const cid = body.clientTransferId;
    if (cid === undefined) return this.#transfer(master, body);
    return this.#transferIds.run(`${master.id}\u0000${cid}`, async () => {
      const done = await this.#d.db.get<TransferRow>(
        "SELECT * FROM sub_transfers WHERE master_user_id = ? AND client_transfer_id = ?",
        [master.id, cid],
      );
      return done === undefined ? this.#transfer(master, body) : presentTransfer(done);
    });
  }

  async #transfer(master: UserRow, body: SubTransferInput): Promise<SubTransferView> {
    const sub = await this.#subOf(master, body.subUserId);
    const ledger = this.#d.ledger;
    const masterAcct = (await ledger.accountFor(master.id)).id;
    const subAcct = (await ledger.accountFor(sub.id, true)).id;
    const [from, to] = body.direction === "TO_SUB" ? [masterAcct, subAcct] : [subAcct, masterAcct];
    const asset = body.asset;
    const amount = toMinor(asset, body.amount);
    if (amount === null || amount <= 0n)
      throw fail(SubCode.TRANSFER_INVALID, `Not a positive amount of ${asset} at its precision`, {
        field: "amount",
      });
    const createdAt = this.#now();
    const symbol = body.wallet === "ISOLATED_MARGIN" ? (body.symbol ?? null) : null;
    const cid = body.clientTransferId ?? null;
    const record = (tx: LedgerTx) =>
      tx.write(async (db) => {
        await db.run(
          "INSERT INTO sub_transfers (master_user_id, sub_user_id, direction, wallet, symbol, asset, amount, client_transfer_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          [master.id, sub.id, body.direction, body.wallet, symbol, asset, amount, cid, createdAt],
        );
      });
    try {
      if (body.wallet === "SPOT") {
        await ledger.transact((tx) => {
          const have = tx.ledger.balance(availableOf(from), asset);
          if (amount > have)
            throw fail(SubCode.TRANSFER_EXCEEDS, "More than the spot balance", {
              max: fromMinor(asset, have),
            });
          const refusal = tx.post(subTransferEntry(availableOf(from), availableOf(to), asset, amount), from);
          if (refusal !== null) throw fail(SubCode.TRANSFER_EXCEEDS, "More than the spot balance");
          record(tx);
        });
      } else if (body.wallet === "FUTURES") {
        const futures = this.#d.futures;
        // USDT moves between the USDT-M wallets, a coin between the two coin-M wallets of that coin.
        if (futures === undefined || !(FUTURES_MARGIN_COINS as readonly string[]).includes(asset))
          throw fail(
            SubCode.TRANSFER_INVALID,
            `The futures wallets carry ${FUTURES_MARGIN_COINS.join(", ")} only`,
            { asset },
          );
        await futures.subTransfer(from, to, amount, record, asset);
      } else {
        const margin = this.#d.margin;
        if (margin === undefined) throw fail(SubCode.TRANSFER_INVALID, "Margin trading is not available");
        await margin.subTransfer(
          from,
          to,
          {
            mode: body.wallet === "CROSS_MARGIN" ? "cross" : "isolated",
            ...(symbol === null ? {} : { symbol }),
            asset,
            amount: body.amount,
          },
          record,
        );
      }
    } catch (err) {
      throw sameCodeForAll(err);
    }
    const row = await this.#d.db.get<TransferRow>(
      cid === null
        ? "SELECT * FROM sub_transfers WHERE master_user_id = ? AND sub_user_id = ? ORDER BY id DESC LIMIT 1"
        : "SELECT * FROM sub_transfers WHERE master_user_id = ? AND client_transfer_id = ?",
      cid === null ? [master.id, sub.id] : [master.id, cid],
    );
    if (row === undefined) throw new AppError("10500", "Transfer not recorded", { status: 500 });
    return presentTransfer(row);
  }

  async transfers(
    master: UserRow,
    q: { subUserId?: string | undefined; limit: number },
  ): Promise<SubTransferView[]> {
    this.#requireMaster(master);
    const rows =
      q.subUserId === undefined
        ? await this.#d.db.all<TransferRow>(
            "SELECT * FROM sub_transfers WHERE master_user_id = ? ORDER BY id DESC LIMIT ?",
            [master.id, q.limit],
          )
        : await this.#d.db.all<TransferRow>(
            "SELECT * FROM sub_transfers WHERE master_user_id = ? AND sub_user_id = ? ORDER BY id DESC LIMIT ?",
            [master.id, q.subUserId, q.limit],
          );
    return rows.map(presentTransfer);
  }

  /** A sub's wallets from the paper ledger (committed and in-flight state of the writer). */
  async #view(sub: UserRow, prices: UsdtPrices): Promise<SubAccountView> {
    const ledger = this.#d.ledger;
    const acct = (await ledger.accountFor(sub.id, true)).id;
    const wallets: Record<string, SubWalletBalance[]> = {};
    let total = 0n;
    const add = (name: string, freeAccount: string, heldAccount: string | null) => {
      const free = ledger.ledgerBalances(freeAccount);
      const held = heldAccount === null ? new Map<string, bigint>() : ledger.ledgerBalances(heldAccount);
      const assets = [...new Set([...free.keys(), ...held.keys()])].sort();
      const list: SubWalletBalance[] = [];
      for (const asset of assets) {
        const f = free.get(asset) ?? 0n;
        const h = held.get(asset) ?? 0n;
        if (f === 0n && h === 0n) continue;
        total += usdtValue(prices, asset, f + h);
        list.push({ asset, amount: fromMinor(asset, f), locked: fromMinor(asset, h) });
      }
      if (list.length > 0 || !name.startsWith("ISOLATED")) wallets[name] = list;
    };
    add("SPOT", availableOf(acct), heldOf(acct));
    add("FUTURES", futuresWalletOf(acct), null);
    add("CROSS_MARGIN", crossMarginOf(acct), `${crossMarginOf(acct)}:held`);
    for (const symbol of this.#d.paper.venue.symbols) {
      const iso = isolatedPairOf(acct, symbol);
      add(`ISOLATED_MARGIN:${symbol}`, iso, `${iso}:held`);
    }
    return {
      userId: sub.id,
      email: sub.email ?? "",
      label: sub.sub_label,
      frozen: sub.frozen === 1,
      createdAt: Number(sub.created_at),
      wallets,
      totalUsdt: fromMinor("USDT", total),
    };
  }
}

/** The futures and margin engines' "too much" codes read as the sub-account one, data (max) kept. */
function sameCodeForAll(err: unknown): unknown {
  if (
    err instanceof AppError &&
    (err.code === FuturesCode.TRANSFER_EXCEEDS || err.code === MarginCode.TRANSFER_EXCEEDS)
  )
    return fail(SubCode.TRANSFER_EXCEEDS, err.message, err.data ?? undefined);
  if (
    err instanceof AppError &&
    (err.code === MarginCode.ASSET_NOT_ALLOWED || err.code === MarginCode.UNKNOWN_PAIR)
  )
    return fail(SubCode.TRANSFER_INVALID, err.message, err.data ?? undefined);
  return err;
}

function presentTransfer(r: TransferRow): SubTransferView {
  return {
    id: Number(r.id),
    subUserId: r.sub_user_id,
    direction: r.direction === "FROM_SUB" ? "FROM_SUB" : "TO_SUB",
    wallet: r.wallet,
    symbol: r.symbol,
    asset: r.asset,
    amount: fromMinor(r.asset, BigInt(r.amount)),
    clientTransferId: r.client_transfer_id,
    createdAt: Number(r.created_at),
  };
}
