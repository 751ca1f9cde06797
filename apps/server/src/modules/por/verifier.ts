import { readFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * The standalone verifier users download: the very sources the page and the server run
 * (packages/domain/src/por/sha256.ts and sum-tree.ts), types stripped and joined into one
 * dependency-free ES module, with a few lines of command line around them:
 *
 *   node por-verify.mjs my-proof.json      # exit 0 and "OK" when the proof holds
 */
const SOURCES = ["sha256.ts", "sum-tree.ts"].map((f) =>
  fileURLToPath(new URL(`../../../../../packages/domain/src/por/${f}`, import.meta.url)),
);

const CLI = `
import { readFileSync } from "node:fs";
const file = process.argv[2];
if (!file) {
  console.error("usage: node por-verify.mjs <proof.json>");
  process.exit(2);
}
const doc = JSON.parse(readFileSync(file, "utf8"));
const proof = doc.proof ?? doc;
const result = verifyPorProof(proof);
if (result.ok) {
  console.log("OK: leaf " + result.leafHash + " is in the tree with root " + result.rootHash);
  for (let i = 0; i < proof.assets.length; i++) console.log("  " + proof.assets[i] + " total " + proof.root.balances[i]);
  process.exit(0);
}
console.log("FAILED: " + result.reason + (result.step === undefined ? "" : " at path step " + result.step));
process.exit(1);
`;

let cached: string | null = null;

export function verifierScript(): string {
  if (cached !== null) return cached;
  const body = SOURCES.map((path) =>
    stripTypeScriptTypes(readFileSync(path, "utf8"))
      .replace(/^import [^;]*;$/gm, "")
      .replace(/^export /gm, ""),
  ).join("\n");
  cached = `// Meridian proof-of-reserves verifier (docs/proof-of-reserves.md). Node 18 or later.\n${body}\n${CLI}`;
  return cached;
}
