import crypto from "node:crypto";
import { ISSUER_PUBLIC_JWK_ENV, isDevIssuer, parseIssuerPublicJwk } from "@meridian/contracts";
import type { SharedSecretStore } from "../../platform/shared-secrets.ts";
import { generateServerKeys, serverKeyEnv } from "../gateway-sign/index.ts";

/**
 * What the accounts and gateway modules read from the environment that must be the same
 * on every instance, filled from the shared store when the environment leaves it unset:
 *
 * - ACCOUNTS_SECRET (production only: elsewhere a fixed development root is shared
 *   anyway): e-mail codes made on one instance verify on another, and TOTP secrets
 *   sealed by one open on all;
 * - the login-encryption key (GATEWAY_SERVER_PRIVATE_KEY / GATEWAY_SERVER_KEY_SIGN) when
 *   the client is built with the development issuer: a login encrypted for the key one
 *   instance published decrypts on any. With a deployment issuer the key is signed
 *   offline (`npm run keys:server`) and must come from the environment.
 *
 * Returns only the variables it filled in.
 */
export async function accountsSharedEnv(
  store: SharedSecretStore,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string>> {
  const filled: Record<string, string> = {};
  if (env.NODE_ENV === "production" && (env.ACCOUNTS_SECRET ?? "") === "") {
    const secret = await store.getOrCreate("accounts-secret", () =>
      crypto.randomBytes(32).toString("base64"),
    );
    if (secret !== undefined) filled.ACCOUNTS_SECRET = secret;
  }
  const keySet = (env.GATEWAY_SERVER_PRIVATE_KEY ?? "") !== "" && (env.GATEWAY_SERVER_KEY_SIGN ?? "") !== "";
  if (!keySet && isDevIssuer(parseIssuerPublicJwk(env[ISSUER_PUBLIC_JWK_ENV]))) {
    const stored = await store.getOrCreate("gateway-server-key", () =>
      JSON.stringify(serverKeyEnv(generateServerKeys())),
    );
    if (stored !== undefined) {
      const keys = JSON.parse(stored) as ReturnType<typeof serverKeyEnv>;
      filled.GATEWAY_SERVER_PRIVATE_KEY = keys.GATEWAY_SERVER_PRIVATE_KEY;
      filled.GATEWAY_SERVER_KEY_SIGN = keys.GATEWAY_SERVER_KEY_SIGN;
    }
  }
  return filled;
}
