import crypto from "node:crypto";
import { DEV_ISSUER_PRIVATE_JWK } from "./dev-issuer.ts";

/** The server's login-encryption key pair and the issuer's signature over its public half. */
export interface ServerKeys {
  privateKey: crypto.KeyObject;
  /** SPKI DER, base64. */
  publicKeyB64: string;
  /** Short id bound into the v2 associated data. */
  keyId: string;
  /** Issuer signature: ECDSA P-256 SHA-256 (IEEE P1363, base64) over the lower-case MD5 hex of the SPKI DER. */
  publicKeySign: string;
}

export function md5Hex(data: Uint8Array | string): string {
  return crypto.createHash("md5").update(data).digest("hex");
}

/** What the issuer signs: the lower-cased MD5 hex of the decoded key (SPEC section 5). */
export function issuerSign(issuerPrivate: crypto.KeyObject, spkiDer: Uint8Array): string {
  return crypto
    .sign("sha256", Buffer.from(md5Hex(spkiDer).toLowerCase()), {
      key: issuerPrivate,
      dsaEncoding: "ieee-p1363",
    })
    .toString("base64");
}

export function serverKeysFrom(privateKey: crypto.KeyObject, publicKeySign: string): ServerKeys {
  const der = crypto.createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return {
    privateKey,
    publicKeyB64: der.toString("base64"),
    keyId: crypto.createHash("sha256").update(der).digest("base64url").slice(0, 16),
    publicKeySign,
  };
}

/** A fresh RSA-2048 key signed by the given issuer (the development issuer unless told). */
export function generateServerKeys(issuerJwk: crypto.JsonWebKey = DEV_ISSUER_PRIVATE_JWK): ServerKeys {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const der = crypto.createPublicKey(privateKey).export({ format: "der", type: "spki" });
  const issuer = crypto.createPrivateKey({ key: issuerJwk, format: "jwk" });
  return serverKeysFrom(privateKey, issuerSign(issuer, der));
}

/**
 * GATEWAY_SERVER_PRIVATE_KEY (PKCS#8 PEM) and GATEWAY_SERVER_KEY_SIGN (the issuer's
 * signature) when set. Otherwise a key is made at start and signed by the development
 * issuer, which only clients built with the development issuer key accept; production
 * warns, because there the issuer check then proves nothing.
 */
export function loadServerKeys(
  env: NodeJS.ProcessEnv = process.env,
  warn: (msg: string) => void = console.warn,
): ServerKeys {
  const pem = env.GATEWAY_SERVER_PRIVATE_KEY;
  const sign = env.GATEWAY_SERVER_KEY_SIGN;
  if (pem !== undefined && pem !== "" && sign !== undefined && sign !== "") {
    return serverKeysFrom(crypto.createPrivateKey(pem.replace(/\\n/g, "\n")), sign);
  }
  if (env.NODE_ENV === "production") {
    warn(
      "GATEWAY_SERVER_PRIVATE_KEY / GATEWAY_SERVER_KEY_SIGN not set: login encryption uses a key signed by the development issuer",
    );
  }
  return generateServerKeys();
}
