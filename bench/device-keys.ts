/**
 * bench:device-keys — what each device key algorithm the gateway accepts costs, in CPU
 * time on one core (process.cpuUsage, so a shared machine inflates it little): the
 * server's verification of one signed write (`verifyDeviceSignature`, the function the
 * gateway calls, key object cached as in the server), and the browser's share through
 * node:crypto (key pair made once per login, a signature per signed write). For each
 * algorithm the median of DEVICE_KEYS_BENCH_RUNS runs (default 5) of
 * DEVICE_KEYS_BENCH_N operations (default 2,000), after a warm-up. The last line is one
 * JSON object: `<alg>_verify_us`, `<alg>_sign_us`, `<alg>_keygen_ms`, and the load.
 */
import crypto from "node:crypto";
import os from "node:os";
import { signPayload } from "@meridian/contracts";
import { verifyDeviceSignature } from "../apps/server/src/modules/gateway-sign/device-key.ts";

const N = Number(process.env.DEVICE_KEYS_BENCH_N ?? 2000);
const RUNS = Number(process.env.DEVICE_KEYS_BENCH_RUNS ?? 5);
const ALGS = ["ECDSA_P256", "RSA2048", "RSA1024"] as const;

const cpuUs = (f: () => void): number => {
  const start = process.cpuUsage();
  f();
  const d = process.cpuUsage(start);
  return d.user + d.system;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const keyPair = (alg: (typeof ALGS)[number]) =>
  alg === "ECDSA_P256"
    ? crypto.generateKeyPairSync("ec", { namedCurve: "P-256" })
    : crypto.generateKeyPairSync("rsa", { modulusLength: alg === "RSA1024" ? 1024 : 2048 });

const out: Record<string, number> = {};
const text = signPayload(
  2,
  "/v1/paper/orders",
  String(Date.now()),
  `${Date.now()}-0123456789abcdef`,
  crypto.hash("md5", "{}", "hex"),
);
for (const alg of ALGS) {
  const keygen: number[] = [];
  for (let i = 0; i < RUNS; i++) keygen.push(cpuUs(() => keyPair(alg)) / 1000);
  const { privateKey, publicKey } = keyPair(alg);
  const spki = publicKey.export({ format: "der", type: "spki" }).toString("base64");
  const signer = alg === "ECDSA_P256" ? { key: privateKey, dsaEncoding: "ieee-p1363" as const } : privateKey;
  const sign = () => crypto.sign("sha256", Buffer.from(text), signer).toString("base64");
  const signature = sign();
  if (!verifyDeviceSignature(alg, spki, text, signature))
    throw new Error(`${alg}: signature does not verify`);
  for (let i = 0; i < N / 4; i++) verifyDeviceSignature(alg, spki, text, signature);
  const verify: number[] = [];
  const signs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    verify.push(
      cpuUs(() => {
        for (let i = 0; i < N; i++) verifyDeviceSignature(alg, spki, text, signature);
      }) / N,
    );
    signs.push(
      cpuUs(() => {
        for (let i = 0; i < N / 4; i++) sign();
      }) /
        (N / 4),
    );
  }
  out[`${alg.toLowerCase()}_verify_us`] = Math.round(median(verify) * 10) / 10;
  out[`${alg.toLowerCase()}_sign_us`] = Math.round(median(signs) * 10) / 10;
  out[`${alg.toLowerCase()}_keygen_ms`] = Math.round(median(keygen) * 10) / 10;
  console.log(
    `${alg}: verify ${median(verify).toFixed(1)} us (runs ${verify.map((v) => v.toFixed(1)).join(", ")}), sign ${median(signs).toFixed(1)} us, key pair ${median(keygen).toFixed(1)} ms (max ${Math.max(...keygen).toFixed(1)})`,
  );
}
const load1 = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
console.log(`node ${process.version}, cores ${os.availableParallelism()}, load ${load1}`);
console.log(JSON.stringify({ ...out, load1 }));
