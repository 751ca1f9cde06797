import crypto from "node:crypto";
import { SignHeader, SignMode, signPayload } from "@meridian/contracts";

/** The device key algorithms the gateway accepts (`GATEWAY_DEVICE_ALGORITHM`). */
export type DeviceAlg = "ECDSA_P256" | "RSA1024" | "RSA2048";

export interface DeviceSigner {
  alg: DeviceAlg;
  /** SPKI DER, base64: what the session is bound to (paper-server's `PAPER_DEVICE_PUBLIC_KEY`). */
  publicKeyB64: string;
  /** The signing headers of one mode-2 request (path + time + trace id + body MD5), as the browser client sends them. */
  headers(path: string, body: string, now: number): Record<string, string>;
}

/**
 * A device key pair as a browser makes one at login (packages/client/src/security), and
 * the headers it signs a write with: RSASSA-PKCS1-v1_5 or ECDSA (IEEE P1363) over
 * SHA-256 of `signPayload`, base64.
 */
export function deviceSigner(alg: DeviceAlg): DeviceSigner {
  const { privateKey, publicKey } =
    alg === "ECDSA_P256"
      ? crypto.generateKeyPairSync("ec", { namedCurve: "P-256" })
      : crypto.generateKeyPairSync("rsa", { modulusLength: alg === "RSA1024" ? 1024 : 2048 });
  const spki = publicKey.export({ format: "der", type: "spki" });
  const keyId = crypto.createHash("sha256").update(spki).digest("base64url").slice(0, 22);
  const signer = alg === "ECDSA_P256" ? { key: privateKey, dsaEncoding: "ieee-p1363" as const } : privateKey;
  return {
    alg,
    publicKeyB64: spki.toString("base64"),
    headers(path, body, now) {
      const tm = String(now);
      const traceId = `${tm}-${crypto.randomBytes(8).toString("hex")}`;
      const bodyMd5 = crypto.createHash("md5").update(body).digest("hex");
      const text = signPayload(SignMode.PATH_TIME_TRACE_BODY, path, tm, traceId, bodyMd5);
      return {
        [SignHeader.SIGN]: crypto.sign("sha256", Buffer.from(text), signer).toString("base64"),
        [SignHeader.MODE]: String(SignMode.PATH_TIME_TRACE_BODY),
        [SignHeader.DATA_MD5]: bodyMd5,
        [SignHeader.KEY]: keyId,
        [SignHeader.TIME]: tm,
        [SignHeader.TRACE_ID]: traceId,
      };
    },
  };
}
