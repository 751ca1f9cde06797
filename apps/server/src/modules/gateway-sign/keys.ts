import crypto from "node:crypto";
import {
  ISSUER_PUBLIC_JWK_ENV,
  type IssuerPublicJwk,
  isDevIssuer,
  parseIssuerPublicJwk,
} from "@meridian/contracts";
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
  // One-shot: no Hash object per call (every mode-2 signed write hashes its body).
  return crypto.hash("md5", data, "hex");
}

/** What the issuer signs: the lower-cased MD5 hex of the decoded key (docs/product.md §5). */
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

/** True when `publicKeySign` is the issuer's signature over this SPKI (base64) key. */
export function issuerSigned(issuer: IssuerPublicJwk, publicKeyB64: string, publicKeySign: string): boolean {
  try {
    const key = crypto.createPublicKey({ key: { ...issuer }, format: "jwk" });
    const der = Buffer.from(publicKeyB64, "base64");
    return crypto.verify(
      "sha256",
      Buffer.from(md5Hex(der).toLowerCase()),
      {
        key,
        dsaEncoding: "ieee-p1363",
      },
      Buffer.from(publicKeySign, "base64"),
    );
  } catch {
    return false;
  }
}

/** RFC 7638 thumbprint (SHA-256, base64url) of an EC public key: names an issuer in logs. */
export function issuerThumbprint(jwk: Pick<IssuerPublicJwk, "crv" | "kty" | "x" | "y">): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return crypto.createHash("sha256").update(canonical).digest("base64url");
}

/** A new issuer key pair (ECDSA P-256) as JWKs: the private half signs server keys offline. */
export function generateIssuerKeys(): { privateJwk: crypto.JsonWebKey; publicJwk: IssuerPublicJwk } {
  const { privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const privateJwk = privateKey.export({ format: "jwk" });
  return { privateJwk, publicJwk: parseIssuerPublicJwk(JSON.stringify({ ...privateJwk, d: undefined })) };
}

/** The server key as the two variables `loadServerKeys` reads (the PEM on one line, `\n` escaped). */
export function serverKeyEnv(keys: ServerKeys): {
  GATEWAY_SERVER_PRIVATE_KEY: string;
  GATEWAY_SERVER_KEY_SIGN: string;
} {
  const pem = keys.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  return {
    GATEWAY_SERVER_PRIVATE_KEY: pem.replace(/\n/g, "\\n"),
    GATEWAY_SERVER_KEY_SIGN: keys.publicKeySign,
  };
}

/**
 * GATEWAY_SERVER_PRIVATE_KEY (PKCS#8 PEM) and GATEWAY_SERVER_KEY_SIGN (the issuer's
 * signature) when set; the issuer is VITE_ISSUER_PUBLIC_JWK, the key the web build
 * carries (the development issuer when unset). Without a configured key, a key is made
 * at start and signed by the development issuer, which only clients built with the
 * development issuer key accept.
 *
 * In production the server refuses to start (throws) with a key the configured issuer
 * did not sign, with an unreadable issuer key, and with no key while a real issuer is
 * configured: every login would fail in the browser (loginEncryptFailed). With the
 * development issuer on both sides it warns, because there the check proves nothing.
 */
export function loadServerKeys(
  env: NodeJS.ProcessEnv = process.env,
  warn: (msg: string) => void = console.warn,
): ServerKeys {
  const production = env.NODE_ENV === "production";
  const refuse = (msg: string) => {
    if (production) throw new Error(`${msg}: refusing to start`);
    warn(msg);
  };
  const issuer = parseIssuerPublicJwk(env[ISSUER_PUBLIC_JWK_ENV]);
  const devIssuer = isDevIssuer(issuer);
  const pem = env.GATEWAY_SERVER_PRIVATE_KEY;
  const sign = env.GATEWAY_SERVER_KEY_SIGN;
  if (pem !== undefined && pem !== "" && sign !== undefined && sign !== "") {
    const keys = serverKeysFrom(crypto.createPrivateKey(pem.replace(/\\n/g, "\n")), sign.trim());
    if (!issuerSigned(issuer, keys.publicKeyB64, keys.publicKeySign)) {
      refuse(
        `GATEWAY_SERVER_KEY_SIGN is not a signature of GATEWAY_SERVER_PRIVATE_KEY's public key by the issuer ${issuerThumbprint(issuer)} (${ISSUER_PUBLIC_JWK_ENV}${devIssuer ? " unset: the development issuer" : ""})`,
      );
    } else if (production && devIssuer) {
      warn("GATEWAY_SERVER_PRIVATE_KEY is signed by the development issuer: set a deployment issuer");
    }
    return keys;
  }
  if (!devIssuer) {
    refuse(
      `${ISSUER_PUBLIC_JWK_ENV} names issuer ${issuerThumbprint(issuer)} but GATEWAY_SERVER_PRIVATE_KEY / GATEWAY_SERVER_KEY_SIGN are not set (npm run keys:server)`,
    );
  } else if (production) {
    warn(
      "GATEWAY_SERVER_PRIVATE_KEY / GATEWAY_SERVER_KEY_SIGN not set: login encryption uses a key signed by the development issuer",
    );
  }
  return generateServerKeys();
}
