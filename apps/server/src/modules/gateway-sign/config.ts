import type { DeviceKeyAlgorithm, EncryptAlgorithm, GatewaySignConfig } from "@meridian/contracts";
import { SIGN_WINDOW_MS } from "@meridian/contracts";
import { z } from "zod";
import type { ServerKeys } from "./keys.ts";

const modes = z.record(z.string().startsWith("/"), z.number().int().min(0).max(2));

const envSchema = z.object({
  /** Off: the client neither signs nor encrypts and the server checks neither. */
  GATEWAY_SIGN_OPEN: z.enum(["true", "false"]).default("true"),
  GATEWAY_DEVICE_ALGORITHM: z.enum(["ECDSA_P256", "RSA1024", "RSA2048"]).default("ECDSA_P256"),
  LOGIN_ENCRYPT_ALGORITHM: z
    .enum(["v2-rsa-oaep256-a256gcm", "v1-rsa15-a256cbc"])
    .default("v2-rsa-oaep256-a256gcm"),
  /** JSON objects path -> mode; merged over the defaults below. */
  GATEWAY_SIGN_EXACT_URLS: z.string().optional(),
  GATEWAY_SIGN_PREFIX_URLS: z.string().optional(),
});

/**
 * Signed paths by default: account security changes and every trading, asset and
 * simulation write. Other modules add theirs through GATEWAY_SIGN_PREFIX_URLS.
 */
export const DEFAULT_EXACT_URLS: Record<string, number> = {
  "/v1/user/google/setup": 1,
  "/v1/user/google/bind": 2,
  "/v1/user/google/enable": 2,
  "/v1/user/kyc/submit": 2,
};
export const DEFAULT_PREFIX_URLS: Record<string, number> = {
  "/v1/trade/": 2,
  "/v1/spot/order": 2,
  "/v1/futures/order": 2,
  "/v1/asset/": 2,
  "/v1/sim/": 2,
  // Sub-accounts: creating, freezing, transfers and the (encrypted) switch paths.
  "/v1/user/sub/": 2,
};

export interface SignSettings {
  open: boolean;
  defaultAlgorithm: DeviceKeyAlgorithm;
  encryptAlgorithm: EncryptAlgorithm;
  exactUrls: Record<string, number>;
  prefixUrls: Record<string, number>;
}

export function loadSignSettings(env: NodeJS.ProcessEnv = process.env): SignSettings {
  const e = envSchema.parse(env);
  const parse = (text: string | undefined) => (text === undefined ? {} : modes.parse(JSON.parse(text)));
  return {
    open: e.GATEWAY_SIGN_OPEN === "true",
    defaultAlgorithm: e.GATEWAY_DEVICE_ALGORITHM,
    encryptAlgorithm: e.LOGIN_ENCRYPT_ALGORITHM,
    exactUrls: { ...DEFAULT_EXACT_URLS, ...parse(e.GATEWAY_SIGN_EXACT_URLS) },
    prefixUrls: { ...DEFAULT_PREFIX_URLS, ...parse(e.GATEWAY_SIGN_PREFIX_URLS) },
  };
}

/** `data.gatewaySignConfig` of GET /v1/mix/config/gatewaySignConfig. */
export function presentSignConfig(s: SignSettings, keys: ServerKeys): GatewaySignConfig {
  return {
    clientOpen: s.open,
    serverPublicKey: keys.publicKeyB64,
    serverPublicKeySign: keys.publicKeySign,
    defaultAlgorithm: s.defaultAlgorithm,
    encryptAlgorithm: s.encryptAlgorithm,
    exactUrls: s.exactUrls,
    prefixUrls: s.prefixUrls,
    signModes: [0, 1, 2],
    userCheckDeviceUrl: ["/v1/user/login"],
    signWindowMs: SIGN_WINDOW_MS,
  };
}
