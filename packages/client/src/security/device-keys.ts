import { type DeviceKeyAlgorithm, KEYPAIR_TIMEOUT_MS } from "@meridian/contracts";
import { sha256Hex, toBase64, utf8 } from "./encoding.ts";

/** The client key pair (docs/product.md §3): public key, the (non-extractable) private key, algorithm. */
export interface DeviceKeyPair {
  /** SPKI DER, base64. */
  publicKey: string;
  privateKey: CryptoKey;
  algorithm: DeviceKeyAlgorithm;
  /** Set once a login bound the pair: the user id and SHA-256 hex of it (the device-check id). */
  userId?: string;
  hashUserId?: string;
}

/** Where key pairs live: IndexedDB in browsers (CryptoKey objects are structured-cloneable), memory elsewhere. */
export interface KeyStore {
  get(slot: "current" | "backup"): Promise<DeviceKeyPair | undefined>;
  put(slot: "current" | "backup", pair: DeviceKeyPair | undefined): Promise<void>;
}

export class KeyGenError extends Error {
  override name = "KeyGenError";
}

function params(alg: DeviceKeyAlgorithm): RsaHashedKeyGenParams | EcKeyGenParams {
  if (alg === "ECDSA_P256") return { name: "ECDSA", namedCurve: "P-256" };
  return {
    name: "RSASSA-PKCS1-v1_5",
    modulusLength: alg === "RSA1024" ? 1024 : 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  };
}

/** Generates a pair whose private key cannot be exported; secure contexts only; 8 s time-out. */
export async function generateDeviceKey(
  alg: DeviceKeyAlgorithm,
  timeoutMs = KEYPAIR_TIMEOUT_MS,
): Promise<DeviceKeyPair> {
  if (
    (globalThis as { isSecureContext?: boolean }).isSecureContext === false ||
    globalThis.crypto?.subtle === undefined
  ) {
    throw new KeyGenError("key pairs need a secure context (https)");
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KeyGenError("key pair generation timed out")), timeoutMs);
  });
  try {
    const pair = (await Promise.race([
      crypto.subtle.generateKey(params(alg), false, ["sign", "verify"]),
      timeout,
    ])) as CryptoKeyPair;
    const spki = await crypto.subtle.exportKey("spki", pair.publicKey);
    return { publicKey: toBase64(spki), privateKey: pair.privateKey, algorithm: alg };
  } catch (err) {
    throw err instanceof KeyGenError ? err : new KeyGenError("key pair generation failed");
  } finally {
    clearTimeout(timer);
  }
}

/** Signs UTF-8 text with a device key: base64 of the WebCrypto signature (P1363 for ECDSA). */
export async function signWith(
  pair: Pick<DeviceKeyPair, "privateKey" | "algorithm">,
  text: string,
): Promise<string> {
  const alg =
    pair.algorithm === "ECDSA_P256" ? { name: "ECDSA", hash: "SHA-256" } : { name: "RSASSA-PKCS1-v1_5" };
  return toBase64(await crypto.subtle.sign(alg, pair.privateKey, utf8(text)));
}

/** SHA-256 of the SPKI, base64url, 22 characters: the `device-sign-key` header (same as the server). */
export async function deviceKeyId(publicKeyB64: string): Promise<string> {
  const bin = atob(publicKeyB64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const digest = toBase64(await crypto.subtle.digest("SHA-256", bytes));
  return digest.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "").slice(0, 22);
}

export function hashUserId(userId: string): Promise<string> {
  return sha256Hex(userId);
}

export class MemoryKeyStore implements KeyStore {
  readonly #slots = new Map<string, DeviceKeyPair>();
  async get(slot: "current" | "backup") {
    return this.#slots.get(slot);
  }
  async put(slot: "current" | "backup", pair: DeviceKeyPair | undefined) {
    if (pair === undefined) this.#slots.delete(slot);
    else this.#slots.set(slot, pair);
  }
}

/** IndexedDB store: database `meridian-device-keys`, version 1 (docs/product.md §9), one object store. */
export class IndexedDbKeyStore implements KeyStore {
  static readonly DB = "meridian-device-keys";
  static readonly VERSION = 1;
  #db: Promise<IDBDatabase> | undefined;

  #open(): Promise<IDBDatabase> {
    this.#db ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(IndexedDbKeyStore.DB, IndexedDbKeyStore.VERSION);
      req.onupgradeneeded = () => req.result.createObjectStore("keys");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return this.#db;
  }

  async #tx<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest): Promise<T> {
    const db = await this.#open();
    return new Promise((resolve, reject) => {
      const req = run(db.transaction("keys", mode).objectStore("keys"));
      req.onsuccess = () => resolve(req.result as T);
      req.onerror = () => reject(req.error);
    });
  }

  get(slot: "current" | "backup"): Promise<DeviceKeyPair | undefined> {
    return this.#tx("readonly", (s) => s.get(slot));
  }

  async put(slot: "current" | "backup", pair: DeviceKeyPair | undefined): Promise<void> {
    await this.#tx("readwrite", (s) => (pair === undefined ? s.delete(slot) : s.put(pair, slot)));
  }
}

/** The store to use here: IndexedDB when the browser has it, memory otherwise (Node, tests, bots). */
export function defaultKeyStore(): KeyStore {
  return typeof indexedDB === "undefined" ? new MemoryKeyStore() : new IndexedDbKeyStore();
}
