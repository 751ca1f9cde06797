import type { PorReserve, PorSummary } from "@meridian/contracts";
import type { Db } from "../../platform/db/types.ts";

export interface StoredLeaf {
  index: number;
  accountId: number;
  nonce: string;
  balances: bigint[];
}

export interface NewSnapshot {
  createdAt: number;
  trigger: PorSummary["trigger"];
  rootHash: string;
  height: number;
  assets: string[];
  reserves: PorReserve[];
  leaves: readonly StoredLeaf[];
}

const CHUNK = 400;

interface SnapshotRecord {
  id: number;
  created_at: number;
  trigger_kind: string;
  root_hash: string;
  height: number;
  leaf_count: number;
  assets: string;
  reserves: string;
}

/** Proof-of-reserves snapshots and their leaves. */
export class PorRepo {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async insert(s: NewSnapshot): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const row = await tx.get<{ id: number }>(
        `INSERT INTO por_snapshots (created_at, trigger_kind, root_hash, height, leaf_count, assets, reserves)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        [
          s.createdAt,
          s.trigger,
          s.rootHash,
          s.height,
          s.leaves.length,
          JSON.stringify(s.assets),
          JSON.stringify(s.reserves),
        ],
      );
      const id = Number(row?.id);
      for (let i = 0; i < s.leaves.length; i += CHUNK) {
        const part = s.leaves.slice(i, i + CHUNK);
        await tx.run(
          `INSERT INTO por_leaves (snapshot_id, leaf_index, account_id, nonce, balances) VALUES ${part
            .map(() => "(?, ?, ?, ?, ?)")
            .join(", ")}`,
          part.flatMap((l) => [id, l.index, l.accountId, l.nonce, l.balances.join(",")]),
        );
      }
      return id;
    });
  }

  async latest(): Promise<PorSummary | undefined> {
    const r = await this.#db.get<SnapshotRecord>(
      `SELECT id, created_at, trigger_kind, root_hash, height, leaf_count, assets, reserves
       FROM por_snapshots ORDER BY id DESC LIMIT 1`,
    );
    if (r === undefined) return undefined;
    return {
      id: Number(r.id),
      time: Number(r.created_at),
      rootHash: r.root_hash,
      height: Number(r.height),
      accounts: Number(r.leaf_count),
      assets: JSON.parse(r.assets) as string[],
      reserves: JSON.parse(r.reserves) as PorReserve[],
      trigger: r.trigger_kind as PorSummary["trigger"],
    };
  }

  async leaves(snapshotId: number): Promise<StoredLeaf[]> {
    const rows = await this.#db.all<{
      leaf_index: number;
      account_id: number;
      nonce: string;
      balances: string;
    }>(
      "SELECT leaf_index, account_id, nonce, balances FROM por_leaves WHERE snapshot_id = ? ORDER BY leaf_index",
      [snapshotId],
    );
    return rows.map((r) => ({
      index: Number(r.leaf_index),
      accountId: Number(r.account_id),
      nonce: r.nonce,
      balances: r.balances === "" ? [] : r.balances.split(",").map((v) => BigInt(v)),
    }));
  }
}
