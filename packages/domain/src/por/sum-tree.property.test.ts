import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "./sha256.ts";
import { buildPorSumTree, type PorProof, porLeafText, porNodeText, verifyPorProof } from "./sum-tree.ts";

const nodeSha = sha256Hex;
const ASSETS = ["BTC", "ETH", "USDT"];

const leaves = fc.array(
  fc.record({
    nonce: fc.stringMatching(/^[0-9a-f]{8,32}$/),
    balances: fc.tuple(fc.bigInt(0n, 10n ** 12n), fc.bigInt(0n, 10n ** 12n), fc.bigInt(0n, 10n ** 15n)),
  }),
  { minLength: 1, maxLength: 40 },
);

const treeAndIndex = leaves.chain((ls) => fc.tuple(fc.constant(ls), fc.nat(ls.length - 1)));

function clone(p: PorProof): { -readonly [K in keyof PorProof]: PorProof[K] } & {
  leaf: { index: number; nonce: string; balances: string[] };
  path: { side: "L" | "R"; hash: string; balances: string[] }[];
  root: { hash: string; balances: string[]; height: number };
} {
  return JSON.parse(JSON.stringify(p));
}

const bump = (s: string, by: bigint) => String(BigInt(s) + by);

describe("sha256Hex", () => {
  // Vectors from Python's hashlib; block boundaries at 55, 56 and 64 bytes, multi-byte UTF-8.
  // (The server's test checks it against node:crypto on random text.)
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    ["a".repeat(1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"],
    ["é€😀 نص", "18204d6a6a168db5a452d837ef616ed915f485bbe555e77306f97f0fca6e4c64"],
    ["x".repeat(55), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"],
    ["x".repeat(56), "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"],
    ["x".repeat(64), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"],
  ])("hashes vector %#", (text, hex) => {
    expect(sha256Hex(text)).toBe(hex);
  });
});

describe("proof of reserves sum tree", () => {
  it("every leaf's proof verifies, and the root sums every balance", () => {
    fc.assert(
      fc.property(leaves, (ls) => {
        const tree = buildPorSumTree(ASSETS, ls, nodeSha);
        const total = ASSETS.map((_, a) => String(ls.reduce((s, l) => s + (l.balances[a] as bigint), 0n)));
        expect(tree.root().balances).toEqual(total);
        for (let i = 0; i < ls.length; i++) {
          const proof = tree.proof(i);
          expect(proof).not.toBeNull();
          if (proof) expect(verifyPorProof(proof)).toMatchObject({ ok: true, rootHash: tree.root().hash });
        }
      }),
      { numRuns: 60 },
    );
  });

  it("a changed leaf balance or nonce fails", () => {
    fc.assert(
      fc.property(treeAndIndex, fc.nat(ASSETS.length - 1), fc.bigInt(1n, 10n ** 9n), ([ls, i], a, by) => {
        const proof = buildPorSumTree(ASSETS, ls, nodeSha).proof(i) as PorProof;
        const up = clone(proof);
        up.leaf.balances[a] = bump(up.leaf.balances[a] as string, by);
        expect(verifyPorProof(up).ok).toBe(false);
        const down = clone(proof);
        if (BigInt(down.leaf.balances[a] as string) >= by) {
          down.leaf.balances[a] = bump(down.leaf.balances[a] as string, -by);
          expect(verifyPorProof(down).ok).toBe(false);
        }
        const nonce = clone(proof);
        nonce.leaf.nonce += "0";
        expect(verifyPorProof(nonce).ok).toBe(false);
      }),
    );
  });

  it("a changed path step (hash, sum or side) fails", () => {
    fc.assert(
      fc.property(
        treeAndIndex.filter(([ls]) => ls.length > 1),
        fc.nat(),
        fc.nat(ASSETS.length - 1),
        fc.bigInt(1n, 10n ** 9n),
        fc.nat(63),
        ([ls, i], s, a, by, pos) => {
          const proof = buildPorSumTree(ASSETS, ls, nodeSha).proof(i) as PorProof;
          const k = s % proof.path.length;
          const sum = clone(proof);
          const step = sum.path[k] as { balances: string[]; hash: string; side: "L" | "R" };
          step.balances[a] = bump(step.balances[a] as string, by);
          expect(verifyPorProof(sum).ok).toBe(false);
          const neg = clone(proof);
          (neg.path[k] as { balances: string[] }).balances[a] = "-1";
          expect(verifyPorProof(neg)).toMatchObject({ ok: false, reason: "path-balance" });
          const hash = clone(proof);
          const h = hash.path[k] as { hash: string };
          const c = h.hash[pos] === "a" ? "b" : "a";
          h.hash = h.hash.slice(0, pos) + c + h.hash.slice(pos + 1);
          expect(verifyPorProof(hash).ok).toBe(false);
          const side = clone(proof);
          const sd = side.path[k] as { side: "L" | "R"; hash: string };
          sd.side = sd.side === "L" ? "R" : "L";
          expect(verifyPorProof(side).ok).toBe(false);
          const dropped = clone(proof);
          dropped.path.splice(k, 1);
          expect(verifyPorProof(dropped).ok).toBe(false);
        },
      ),
    );
  });

  it("a changed root sum, hash or height fails", () => {
    fc.assert(
      fc.property(treeAndIndex, fc.nat(ASSETS.length - 1), fc.bigInt(1n, 10n ** 9n), ([ls, i], a, by) => {
        const proof = buildPorSumTree(ASSETS, ls, nodeSha).proof(i) as PorProof;
        const sum = clone(proof);
        sum.root.balances[a] = bump(sum.root.balances[a] as string, by);
        expect(verifyPorProof(sum)).toMatchObject({ ok: false, reason: "root-sum" });
        const height = clone(proof);
        height.root.height += 1;
        expect(verifyPorProof(height)).toMatchObject({ ok: false, reason: "height" });
        const hash = clone(proof);
        hash.root.hash = nodeSha("other");
        expect(verifyPorProof(hash)).toMatchObject({ ok: false, reason: "root-hash" });
      }),
    );
  });

  it("hashes leaves and nodes as documented", () => {
    const tree = buildPorSumTree(
      ["BTC", "USDT"],
      [
        { nonce: "n1", balances: [1n, 20n] },
        { nonce: "n2", balances: [3n, 0n] },
        { nonce: "n3", balances: [0n, 5n] },
      ],
    );
    expect(porLeafText("n1", ["BTC", "USDT"], [1n, 20n])).toBe('n1{"BTC":"1","USDT":"20"}');
    const l1 = sha256Hex('n1{"BTC":"1","USDT":"20"}');
    const l2 = sha256Hex('n2{"BTC":"3","USDT":"0"}');
    const l3 = sha256Hex('n3{"BTC":"0","USDT":"5"}');
    const p12 = sha256Hex(porNodeText(l1, l2, [4n, 20n], 2));
    expect(porNodeText(l1, l2, [4n, 20n], 2)).toBe(`${l1},${l2},4,20,2`);
    const p3 = sha256Hex(porNodeText(l3, "0".repeat(64), [0n, 5n], 2));
    expect(tree.root()).toEqual({
      hash: sha256Hex(porNodeText(p12, p3, [4n, 25n], 3)),
      balances: ["4", "25"],
      height: 3,
    });
    expect(tree.proof(2)?.path[0]).toEqual({ side: "R", hash: "0".repeat(64), balances: ["0", "0"] });
    expect(tree.proof(3)).toBeNull();
  });

  it("refuses negative balances and malformed proofs without throwing", () => {
    expect(() => buildPorSumTree(["BTC"], [{ nonce: "x", balances: [-1n] }])).toThrow(RangeError);
    expect(verifyPorProof(JSON.parse("{}"))).toMatchObject({ ok: false, reason: "shape" });
    expect(
      verifyPorProof(JSON.parse('{"scheme":"meridian-por-v1","assets":["BTC"],"path":[],"root":{}}')),
    ).toMatchObject({
      ok: false,
      reason: "leaf-balance",
    });
  });
});
