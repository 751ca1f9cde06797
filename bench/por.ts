/**
 * bench:por — builds the proof-of-reserves Merkle sum tree (packages/domain/src/por) over
 * POR_ACCOUNTS paper accounts (default 1,000,000) with the server's hasher (node:crypto),
 * each account holding seeded random balances of USDT, BTC and ETH (and every tenth some
 * SOL), then draws and verifies 1,000 proofs. The nonces are made before the clock starts,
 * as the server makes them while it reads the balances. Last line: one JSON object.
 */
import { hash as oneShot, randomBytes } from "node:crypto";
import { buildPorSumTree, Prng, verifyPorProof } from "@meridian/domain";

const N = Number(process.env.POR_ACCOUNTS ?? 1_000_000);
const ASSETS = ["BTC", "ETH", "SOL", "USDT"];
const rng = new Prng(20_261_127);
const big = (max: number) => BigInt(Math.floor(rng.next() * max));

const noncePool = randomBytes(N * 16).toString("hex");
const leaves = new Array(N);
for (let i = 0; i < N; i++) {
  leaves[i] = {
    nonce: noncePool.slice(i * 32, i * 32 + 32),
    balances: [
      big(50_000_000),
      big(500_000_000),
      i % 10 === 0 ? big(10_000_000_000) : 0n,
      big(5_000_000_000_000),
    ],
  };
}
// node:crypto's one-shot hash skips the Hash object createHash builds per call.
const hash = (text: string) => oneShot("sha256", text, "hex");

const started = performance.now();
const tree = buildPorSumTree(ASSETS, leaves, hash);
const buildMs = performance.now() - started;
const root = tree.root();
console.log(`built ${N} leaves in ${buildMs.toFixed(0)} ms; height ${root.height}; root ${root.hash}`);

const verifyStart = performance.now();
let verified = 0;
for (let k = 0; k < 1000; k++) {
  const proof = tree.proof(Math.floor(rng.next() * N));
  if (proof && verifyPorProof(proof).ok) verified++;
}
const verifyMs = (performance.now() - verifyStart) / 1000;
console.log(`verified ${verified}/1000 proofs, ${verifyMs.toFixed(3)} ms each (pure-TS SHA-256)`);
console.log(
  JSON.stringify({
    accounts: N,
    assets: ASSETS.length,
    build_ms: Math.round(buildMs),
    height: root.height,
    verify_ms_per_proof: Number(verifyMs.toFixed(3)),
    proofs_verified: verified,
    heap_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  }),
);
