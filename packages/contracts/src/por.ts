/** Proof of reserves (/proof-of-reserves): docs/proof-of-reserves.md. */
export const PorPath = {
  /** Public: the latest snapshot (null before the first). */
  SUMMARY: "/v1/por/summary",
  /** Logged in: the user's leaf and path in the latest snapshot. */
  PROOF: "/v1/por/proof",
  /** Administrators: build a snapshot now. */
  BUILD: "/v1/por/admin/build",
  /** The standalone verifier (node por-verify.mjs proof.json). */
  VERIFIER: "/v1/por/verifier.mjs",
} as const;

export const PorCode = {
  /** The user had no paper account (or held nothing) when the snapshot was taken. */
  NO_LEAF: "19001",
} as const;

export interface PorReserve {
  asset: string;
  /** Decimal amounts of the asset. */
  liabilities: string;
  treasury: string;
  insuranceFund: string;
  lendingPool: string;
  reserves: string;
  /** reserves / liabilities as a percent with two decimals; null when nothing is owed. */
  ratio: string | null;
}

/**
 * Snapshots are taken at start when the last is older than this, then on every
 * epoch-aligned boundary of it (`POR_SNAPSHOT_INTERVAL_MS` in the environment overrides
 * it): an account opened now is in a snapshot within this long.
 */
export const POR_SNAPSHOT_INTERVAL_MS = 600_000;

export interface PorSummary {
  id: number;
  time: number;
  rootHash: string;
  height: number;
  accounts: number;
  assets: string[];
  reserves: PorReserve[];
  /** "daily" on snapshots taken before the schedule became POR_SNAPSHOT_INTERVAL_MS. */
  trigger: "daily" | "scheduled" | "admin" | "start";
  /** When the next scheduled snapshot is due (ms since epoch); sent with the latest summary. */
  nextAt?: number;
}

/**
 * A user's proof as sent (the wire form of `PorProof` in packages/domain/src/por, which
 * builds and verifies it): amounts are integers in minor units, as strings.
 */
export interface PorProof {
  readonly scheme: "meridian-por-v1";
  readonly assets: readonly string[];
  readonly leaf: { readonly index: number; readonly nonce: string; readonly balances: readonly string[] };
  readonly path: readonly {
    readonly side: "L" | "R";
    readonly hash: string;
    readonly balances: readonly string[];
  }[];
  readonly root: { readonly hash: string; readonly balances: readonly string[]; readonly height: number };
}

export interface PorProofView {
  snapshotId: number;
  time: number;
  proof: PorProof;
}
