import { hash as oneShot, randomBytes, randomInt } from "node:crypto";
import { POR_SNAPSHOT_INTERVAL_MS, PorCode, type PorProofView, type PorSummary } from "@meridian/contracts";
import { buildPorSumTree, type PorSumTree } from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import type { LedgerWriter } from "../ledger/index.ts";
import type { PorRepo, StoredLeaf } from "./repo.ts";
import { reservesOf } from "./reserves.ts";

// node:crypto's one-shot hash: about half the time of createHash per node (bench:por).
const sha256 = (text: string): string => oneShot("sha256", text, "hex");
const USER_ACCOUNT = /^user:(\d+):/;

interface Loaded {
  summary: PorSummary;
  tree: PorSumTree;
  leafOf: Map<number, number>;
}

export interface PorServiceOptions {
  /** Balances are read in the ledger writer, between commands. */
  ledger: Pick<LedgerWriter, "transact">;
  repo: PorRepo;
  now?: () => number;
  /** Between scheduled snapshots (epoch-aligned); POR_SNAPSHOT_INTERVAL_MS by default. */
  intervalMs?: number;
  onError?: (err: unknown, msg: string) => void;
}

/**
 * Builds proof-of-reserves snapshots (on every epoch-aligned boundary of the interval, at
 * start when the last is older than one interval, and when an administrator asks) and
 * answers each user's proof from the latest. The interval bounds how long a new account
 * waits for its first snapshot, and the summary says when the next one is due.
 */
export class PorService {
  readonly #ledger: Pick<LedgerWriter, "transact">;
  readonly #repo: PorRepo;
  readonly #now: () => number;
  readonly #onError: (err: unknown, msg: string) => void;
  readonly #intervalMs: number;
  #nextAt: number | null = null;
  #latest: Loaded | null = null;
  #summary: PorSummary | null = null;
  #building: Promise<PorSummary> | null = null;
  #loading: Promise<Loaded | null> | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(o: PorServiceOptions) {
    this.#ledger = o.ledger;
    this.#repo = o.repo;
    this.#now = o.now ?? Date.now;
    this.#onError = o.onError ?? (() => {});
    this.#intervalMs = Math.max(1000, o.intervalMs ?? POR_SNAPSHOT_INTERVAL_MS);
  }

  async start(): Promise<void> {
    this.#summary = (await this.#repo.latest()) ?? null;
    if (this.#summary === null || this.#now() - this.#summary.time >= this.#intervalMs)
      await this.build("start");
    this.#schedule();
  }

  close(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** The latest snapshot with the time of the next scheduled one; null before the first. */
  summary(): PorSummary | null {
    if (this.#summary === null) return null;
    return this.#nextAt === null ? this.#summary : { ...this.#summary, nextAt: this.#nextAt };
  }

  /** One build at a time: a request during a build gets that build's result. */
  build(trigger: PorSummary["trigger"]): Promise<PorSummary> {
    this.#building ??= this.#build(trigger).finally(() => {
      this.#building = null;
    });
    return this.#building;
  }

  async proof(accountId: number): Promise<PorProofView> {
    const loaded = await this.#load();
    const index = loaded?.leafOf.get(accountId);
    const proof = index === undefined ? null : loaded?.tree.proof(index);
    if (loaded === null || proof === null || proof === undefined) {
      throw new AppError(PorCode.NO_LEAF, "Your account was not in the latest snapshot", { status: 200 });
    }
    return { snapshotId: loaded.summary.id, time: loaded.summary.time, proof };
  }

  #schedule(): void {
    const now = this.#now();
    const wait = this.#intervalMs - (now % this.#intervalMs);
    this.#nextAt = now + wait;
    this.#timer = setTimeout(() => {
      this.build("scheduled")
        .catch((err) => this.#onError(err, "proof-of-reserves scheduled build failed"))
        .finally(() => this.#schedule());
    }, wait);
    this.#timer.unref();
  }

  async #build(trigger: PorSummary["trigger"]): Promise<PorSummary> {
    // Read inside the ledger writer: every balance as of one point between commands.
    const { users, system } = await this.#ledger.transact((tx) => {
      const users = new Map<number, Map<string, bigint>>();
      const system = new Map<string, bigint>();
      for (const [account, balances] of tx.ledger.entries()) {
        const m = USER_ACCOUNT.exec(account);
        if (m === null) {
          for (const [asset, amount] of balances) system.set(`${account}\n${asset}`, amount);
          continue;
        }
        const id = Number(m[1]);
        let own = users.get(id);
        if (own === undefined) {
          own = new Map();
          users.set(id, own);
        }
        for (const [asset, amount] of balances) own.set(asset, (own.get(asset) ?? 0n) + amount);
      }
      return { users, system };
    });
    const assetSet = new Set<string>();
    for (const own of users.values()) for (const [asset, v] of own) if (v !== 0n) assetSet.add(asset);
    const assets = assetSet.size === 0 ? ["USDT"] : [...assetSet].sort();
    const ids = [...users.keys()];
    // Leaves in random order, so a leaf's position says nothing about when the account opened.
    for (let i = ids.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      const t = ids[i] as number;
      ids[i] = ids[j] as number;
      ids[j] = t;
    }
    const nonces = randomBytes(ids.length * 16).toString("hex");
    const leaves: StoredLeaf[] = ids.map((accountId, index) => {
      const own = users.get(accountId);
      return {
        index,
        accountId,
        nonce: nonces.slice(index * 32, index * 32 + 32),
        // A user account never goes below zero (the ledger refuses it); a sum across them cannot either.
        balances: assets.map((a) => own?.get(a) ?? 0n),
      };
    });
    const tree = buildPorSumTree(assets, leaves, sha256);
    const root = tree.root();
    const reserves = reservesOf(
      assets,
      root.balances.map((b) => BigInt(b)),
      (account, asset) => system.get(`${account}\n${asset}`) ?? 0n,
    );
    const createdAt = this.#now();
    const id = await this.#repo.insert({
      createdAt,
      trigger,
      rootHash: root.hash,
      height: root.height,
      assets,
      reserves,
      leaves,
    });
    const summary: PorSummary = {
      id,
      time: createdAt,
      rootHash: root.hash,
      height: root.height,
      accounts: leaves.length,
      assets,
      reserves,
      trigger,
    };
    this.#summary = summary;
    this.#latest = { summary, tree, leafOf: new Map(leaves.map((l) => [l.accountId, l.index])) };
    return summary;
  }

  /** The latest tree, rebuilt from its stored leaves after a restart (same leaves, same root). */
  async #load(): Promise<Loaded | null> {
    const summary = this.#summary;
    if (summary === null) return null;
    if (this.#latest?.summary.id === summary.id) return this.#latest;
    this.#loading ??= (async () => {
      const leaves = await this.#repo.leaves(summary.id);
      const tree = buildPorSumTree(summary.assets, leaves, sha256);
      if (tree.root().hash !== summary.rootHash) {
        this.#onError(new Error("stored leaves do not rebuild the published root"), "proof-of-reserves");
        return null;
      }
      const loaded = { summary, tree, leafOf: new Map(leaves.map((l) => [l.accountId, l.index])) };
      this.#latest = loaded;
      return loaded;
    })().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }
}
