import { KeyedMutex } from "../../platform/db/index.ts";
import type { Db } from "../../platform/db/types.ts";
import type { LedgerTx } from "../ledger/index.ts";

/** A wallet transfer made with a client id, as stored (`wallet_transfer_ids`). */
export interface StoredTransfer {
  accountId: number;
  clientTransferId: string;
  /** What the transfer answered as its id (its `wallet_transfers` row's). */
  tranId: number;
  from: string;
  to: string;
  asset: string;
  amount: bigint;
  createdAt: number;
}

/** Adds the transfer's row to the commit that moves the money (call it inside the command). */
export type RecordTransfer = (
  tx: LedgerTx,
  t: { tranId: number; from: string; to: string; asset: string; amount: bigint },
) => void;

interface TransferRecord {
  account_id: number | string;
  client_transfer_id: string;
  tran_id: number | string;
  from_wallet: string;
  to_wallet: string;
  asset: string;
  amount: number | string | bigint;
  created_at: number | string;
}

/**
 * Wallet transfers (spot, futures, cross and isolated margin) that carry a client id run
 * at most once per account and id. On the writer, transfers with the same id run one
 * after another; each first looks for the stored row, which the transfer that made it
 * wrote in the same commit as its ledger entries. So a retry (a lost answer, a writer
 * failover, a double click) answers the first transfer and moves nothing.
 *
 * NOTE: one instance serves the futures and the margin transfer (the margin service uses
 * the futures service's), so the same id sent to both waits its turn, too.
 */
export class WalletTransferIds {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly locks = new KeyedMutex();

  constructor(db: Db, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
  }

  /**
   * `transfer(record)` when `clientTransferId` is absent or new (`record` is null without
   * an id), else `replay` of the stored row.
   */
  async once<T>(
    accountId: number,
    clientTransferId: string | undefined,
    transfer: (record: RecordTransfer | null) => Promise<T>,
    replay: (stored: StoredTransfer) => T | Promise<T>,
  ): Promise<T> {
    if (clientTransferId === undefined) return transfer(null);
    return this.locks.run(`${accountId}\u0000${clientTransferId}`, async () => {
      const stored = await this.find(accountId, clientTransferId);
      if (stored !== undefined) return replay(stored);
      return transfer((tx, t) => {
        const createdAt = this.now();
        tx.write(async (db) => {
          await db.run(
            `INSERT INTO wallet_transfer_ids (account_id, client_transfer_id, tran_id, from_wallet, to_wallet, asset, amount, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
            [accountId, clientTransferId, t.tranId, t.from, t.to, t.asset, t.amount, createdAt],
          );
        });
      });
    });
  }

  async find(accountId: number, clientTransferId: string): Promise<StoredTransfer | undefined> {
    const r = await this.db.get<TransferRecord>(
      `SELECT account_id, client_transfer_id, tran_id, from_wallet, to_wallet, asset,
              CAST(amount AS TEXT) AS amount, created_at
       FROM wallet_transfer_ids WHERE account_id = ? AND client_transfer_id = ?`,
      [accountId, clientTransferId],
    );
    if (r === undefined) return undefined;
    return {
      accountId: Number(r.account_id),
      clientTransferId: r.client_transfer_id,
      tranId: Number(r.tran_id),
      from: r.from_wallet,
      to: r.to_wallet,
      asset: r.asset,
      amount: BigInt(r.amount),
      createdAt: Number(r.created_at),
    };
  }
}
