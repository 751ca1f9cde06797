import { sha256Hex } from "./sha256.ts";

/**
 * Proof of reserves: a Merkle sum tree over every paper account's balances per asset,
 * after OKX's first published scheme (github.com/okx/proof-of-reserves, "v1"):
 *
 * - leaf hash = SHA-256(nonce + balances as JSON `{"BTC":"..","ETH":"..",...}`);
 * - node hash = SHA-256(left hash, right hash, the per-asset sums of both children, height),
 *   the node carrying those sums, so the root holds every liability per asset;
 * - a user's proof is their leaf (nonce and balances) and the sibling of every node on the
 *   way up (hash, sums, side); anyone recomputes the root from it.
 *
 * Where this differs from OKX v1, and why (docs/proof-of-reserves.md):
 * - node fields are joined with commas: OKX concatenates the balance strings, so
 *   "1"+"23" and "12"+"3" hash alike;
 * - amounts are integers in the asset's minor units (8 decimals for USDT), exact and fast
 *   to sum; the assets are any list, sorted, not a fixed BTC/ETH/USDT;
 * - an odd node at a level is paired with a padding node (all-zero hash, zero sums).
 *
 * A sibling carrying a negative sum would let an operator hide liabilities, so the
 * verifier refuses any negative amount anywhere on the path.
 */

export const POR_SCHEME = "meridian-por-v1";
/** Hash of the padding node an odd node is paired with. */
export const POR_PADDING_HASH = "0".repeat(64);

/** SHA-256 of a UTF-8 string as lower-case hex (the server passes node:crypto's, the verifier the pure one). */
export type PorHasher = (text: string) => string;

export interface PorLeafInput {
  /** Random per account and per build; keeps a leaf's balances from being guessed from its hash. */
  readonly nonce: string;
  /** Minor units, aligned with the tree's assets; never negative. */
  readonly balances: readonly bigint[];
}

export interface PorNode {
  readonly hash: string;
  readonly balances: readonly string[];
  readonly height: number;
}

export interface PorPathStep {
  /** Where the sibling sits: "L" when it is the left child, "R" the right. */
  readonly side: "L" | "R";
  readonly hash: string;
  readonly balances: readonly string[];
}

export interface PorProof {
  readonly scheme: typeof POR_SCHEME;
  readonly assets: readonly string[];
  readonly leaf: { readonly index: number; readonly nonce: string; readonly balances: readonly string[] };
  readonly path: readonly PorPathStep[];
  readonly root: PorNode;
}

/** Text hashed for a leaf: the nonce, then the balances as JSON in asset order. */
export function porLeafText(
  nonce: string,
  assets: readonly string[],
  balances: readonly (bigint | string)[],
): string {
  let json = "{";
  for (let i = 0; i < assets.length; i++) {
    if (i > 0) json += ",";
    json += `"${assets[i]}":"${String(balances[i] ?? "")}"`;
  }
  return `${nonce}${json}}`;
}

/** Text hashed for an inner node: both child hashes, the sums, the height, comma-joined. */
export function porNodeText(
  left: string,
  right: string,
  sums: readonly (bigint | string)[],
  height: number,
): string {
  let text = `${left},${right}`;
  for (const s of sums) text += `,${String(s)}`;
  return `${text},${height}`;
}

interface Level {
  readonly hashes: string[];
  /** `count x assets` sums, row-major. */
  readonly sums: bigint[];
}

/** A built tree: every level's hashes and sums, kept to answer proofs. */
export class PorSumTree {
  readonly assets: readonly string[];
  readonly nonces: readonly string[];
  readonly #levels: readonly Level[];

  constructor(assets: readonly string[], nonces: readonly string[], levels: readonly Level[]) {
    this.assets = assets;
    this.nonces = nonces;
    this.#levels = levels;
  }

  get leafCount(): number {
    return this.nonces.length;
  }

  /** The root: its hash, the total liabilities per asset (minor units) and its height (a lone leaf is 1). */
  root(): PorNode {
    const top = this.#levels[this.#levels.length - 1];
    return {
      hash: top?.hashes[0] ?? POR_PADDING_HASH,
      balances: this.#sumsAt(top, 0),
      height: this.#levels.length,
    };
  }

  /** The proof of one leaf; null when the index is outside the tree. */
  proof(index: number): PorProof | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.leafCount) return null;
    const path: PorPathStep[] = [];
    let at = index;
    for (let l = 0; l < this.#levels.length - 1; l++) {
      const level = this.#levels[l] as Level;
      const sibling = at ^ 1;
      const exists = sibling < level.hashes.length;
      path.push({
        side: (at & 1) === 1 ? "L" : "R",
        hash: exists ? (level.hashes[sibling] as string) : POR_PADDING_HASH,
        balances: exists ? this.#sumsAt(level, sibling) : this.assets.map(() => "0"),
      });
      at >>= 1;
    }
    return {
      scheme: POR_SCHEME,
      assets: this.assets,
      leaf: { index, nonce: this.nonces[index] as string, balances: this.#sumsAt(this.#levels[0], index) },
      path,
      root: this.root(),
    };
  }

  #sumsAt(level: Level | undefined, index: number): string[] {
    const n = this.assets.length;
    const out: string[] = [];
    for (let a = 0; a < n; a++) out.push(String(level?.sums[index * n + a] ?? 0n));
    return out;
  }
}

/**
 * Builds the tree bottom-up. `hash` is SHA-256 as hex (node:crypto on the server, the pure
 * `sha256Hex` elsewhere). Throws RangeError on a negative balance or a misaligned leaf.
 */
export function buildPorSumTree(
  assets: readonly string[],
  leaves: readonly PorLeafInput[],
  hash: PorHasher = sha256Hex,
): PorSumTree {
  const n = assets.length;
  const leafSums: bigint[] = new Array(leaves.length * n);
  const leafHashes: string[] = new Array(leaves.length);
  const nonces: string[] = new Array(leaves.length);
  for (let i = 0; i < leaves.length; i++) {
    const leaf = leaves[i] as PorLeafInput;
    if (leaf.balances.length !== n)
      throw new RangeError(`leaf ${i}: ${leaf.balances.length} balances for ${n} assets`);
    for (let a = 0; a < n; a++) {
      const v = leaf.balances[a] as bigint;
      if (v < 0n) throw new RangeError(`leaf ${i}: negative ${assets[a]}`);
      leafSums[i * n + a] = v;
    }
    nonces[i] = leaf.nonce;
    leafHashes[i] = hash(porLeafText(leaf.nonce, assets, leaf.balances));
  }
  const levels: Level[] = [{ hashes: leafHashes, sums: leafSums }];
  let below = levels[0] as Level;
  let height = 1;
  while (below.hashes.length > 1) {
    height++;
    const count = Math.ceil(below.hashes.length / 2);
    const hashes: string[] = new Array(count);
    const sums: bigint[] = new Array(count * n);
    const row: bigint[] = new Array(n);
    for (let i = 0; i < count; i++) {
      const l = 2 * i;
      const r = l + 1;
      const hasRight = r < below.hashes.length;
      for (let a = 0; a < n; a++) {
        const s = (below.sums[l * n + a] as bigint) + (hasRight ? (below.sums[r * n + a] as bigint) : 0n);
        row[a] = s;
        sums[i * n + a] = s;
      }
      const right = hasRight ? (below.hashes[r] as string) : POR_PADDING_HASH;
      hashes[i] = hash(porNodeText(below.hashes[l] as string, right, row, height));
    }
    below = { hashes, sums };
    levels.push(below);
  }
  return new PorSumTree(assets, nonces, levels);
}

export type PorVerifyFailure =
  | "shape"
  | "leaf-balance"
  | "path-balance"
  | "path-hash"
  | "height"
  | "root-hash"
  | "root-sum";

export type PorVerifyResult =
  | { readonly ok: true; readonly leafHash: string; readonly rootHash: string }
  | { readonly ok: false; readonly reason: PorVerifyFailure; readonly step?: number };

const AMOUNT = /^(0|[1-9][0-9]*)$/;
const HEX64 = /^[0-9a-f]{64}$/;

function amounts(values: unknown, n: number): bigint[] | null {
  if (!Array.isArray(values) || values.length !== n) return null;
  const out: bigint[] = [];
  for (const v of values) {
    if (typeof v !== "string" || !AMOUNT.test(v)) return null;
    out.push(BigInt(v));
  }
  return out;
}

/**
 * Recomputes the root from a proof: the leaf hash from its nonce and balances, then every
 * parent from the sibling on the path, summing per asset. Succeeds only when the hash,
 * every sum and the height equal the published root's. Takes `unknown` fields at face
 * value from JSON, so a hand-edited file fails with a reason instead of throwing.
 */
export function verifyPorProof(proof: PorProof, hash: PorHasher = sha256Hex): PorVerifyResult {
  const assets = proof?.assets;
  if (proof?.scheme !== POR_SCHEME || !Array.isArray(assets) || !Array.isArray(proof.path) || !proof.root) {
    return { ok: false, reason: "shape" };
  }
  const n = assets.length;
  if (n === 0 || assets.some((a) => typeof a !== "string" || !/^[A-Z0-9]{1,16}$/.test(a))) {
    return { ok: false, reason: "shape" };
  }
  const leafBalances = amounts(proof.leaf?.balances, n);
  if (leafBalances === null || typeof proof.leaf.nonce !== "string")
    return { ok: false, reason: "leaf-balance" };
  const leafHash = hash(porLeafText(proof.leaf.nonce, assets, leafBalances));
  let current = leafHash;
  let sums = leafBalances;
  let height = 1;
  for (let i = 0; i < proof.path.length; i++) {
    const step = proof.path[i] as PorPathStep;
    const sibling = amounts(step?.balances, n);
    if (sibling === null) return { ok: false, reason: "path-balance", step: i };
    if (typeof step.hash !== "string" || !HEX64.test(step.hash) || (step.side !== "L" && step.side !== "R")) {
      return { ok: false, reason: "path-hash", step: i };
    }
    height++;
    sums = sums.map((s, a) => s + (sibling[a] as bigint));
    current =
      step.side === "L"
        ? hash(porNodeText(step.hash, current, sums, height))
        : hash(porNodeText(current, step.hash, sums, height));
  }
  const rootSums = amounts(proof.root.balances, n);
  if (proof.root.height !== height) return { ok: false, reason: "height" };
  if (current !== proof.root.hash) return { ok: false, reason: "root-hash" };
  if (rootSums === null || rootSums.some((s, a) => s !== sums[a])) return { ok: false, reason: "root-sum" };
  return { ok: true, leafHash, rootHash: current };
}
