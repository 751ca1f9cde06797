import {
  deviceCheckPayload,
  type GatewaySignConfig,
  gatewaySignConfigSchema,
  isEncryptedPath,
  type SecurityEvent,
  SIGN_REINIT_DELAY_MS,
  SignHeader,
  signModeFor,
  signPayload,
} from "@meridian/contracts";
import {
  type DeviceKeyPair,
  defaultKeyStore,
  deviceKeyId,
  generateDeviceKey,
  hashUserId,
  type KeyStore,
  signWith,
} from "./device-keys.ts";
import { randomHex } from "./encoding.ts";
import { encryptLoginBody, type VerifiedServerKey, verifyServerKey } from "./login-crypto.ts";
import { md5Hex } from "./md5.ts";

export type SignSetupState = "uninitialised" | "initialised" | "failed";

export const SIGN_CONFIG_CACHE_KEY = "gatewaySignConfig";

export interface GatewaySecurityOptions {
  /** GET /v1/mix/config/gatewaySignConfig, unwrapped to `data.gatewaySignConfig`. */
  fetchConfig(): Promise<unknown>;
  /** POST /v1/buried/log/cspSecurity; fire and forget. */
  report(event: SecurityEvent, reason: string): void;
  store?: KeyStore;
  /** Built-in issuer public key; the development issuer unless a build passes its own. */
  issuerJwk?: JsonWebKey;
  /** Session storage for the cached sign config (absent outside browsers). */
  cache?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

function isNetworkError(err: unknown): boolean {
  return (
    err instanceof TypeError ||
    (err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError"))
  );
}

/**
 * The browser side of gateway security: sign config, server key check, device keys,
 * login-body encryption, request signing and the server-aligned clock. Its methods
 * plug into `createApiClient` (`transformBody`, `beforeSend`, `onResponseHeaders`, `now`).
 */
export class GatewaySecurity {
  state: SignSetupState = "uninitialised";
  readonly #o: GatewaySecurityOptions;
  readonly #store: KeyStore;
  #config: GatewaySignConfig | undefined;
  #serverKey: VerifiedServerKey | undefined;
  #init: Promise<void> | undefined;
  #offsetMs = 0;
  /** The pair sent with the login request in flight: bound when the login succeeds. */
  #pending: DeviceKeyPair | undefined;
  /** The bound pair, when the session it belongs to is the current one. */
  #active: (DeviceKeyPair & { keyId: string }) | undefined;
  #backupJob: Promise<void> | undefined;

  constructor(options: GatewaySecurityOptions) {
    this.#o = options;
    this.#store = options.store ?? defaultKeyStore();
  }

  /** Server-aligned time (the `request-time` answers). */
  readonly now = (): number => Date.now() + this.#offsetMs;

  /** Sends a security event (network errors are never reported). */
  report(event: SecurityEvent, reason: string): void {
    this.#o.report(event, reason.slice(0, 2_000));
  }

  alignClock(serverTimeMs: number): void {
    if (Number.isFinite(serverTimeMs) && serverTimeMs > 0) this.#offsetMs = serverTimeMs - Date.now();
  }

  get config(): GatewaySignConfig | undefined {
    return this.#config;
  }

  init(): Promise<void> {
    this.#init ??= this.#doInit().catch((err: unknown) => {
      this.state = "failed";
      this.#init = undefined;
      if (!isNetworkError(err))
        this.#o.report("initFailed", err instanceof Error ? err.message : String(err));
    });
    return this.#init;
  }

  async #doInit(): Promise<void> {
    const cached = this.#o.cache?.getItem(SIGN_CONFIG_CACHE_KEY);
    let raw: unknown = cached == null ? undefined : JSON.parse(cached);
    if (raw === undefined) raw = await this.#o.fetchConfig();
    const config = gatewaySignConfigSchema.parse(raw);
    this.#o.cache?.setItem(SIGN_CONFIG_CACHE_KEY, JSON.stringify(config));
    this.#config = config;
    this.#serverKey = undefined;
    if (config.clientOpen) {
      try {
        this.#serverKey = await verifyServerKey(config, this.#o.issuerJwk);
      } catch (err) {
        this.#o.report("loginEncryptFailed", err instanceof Error ? err.message : "server key check failed");
        throw err;
      }
    }
    this.state = "initialised";
  }

  /** 00022: forget the setup; the next call initialises again. */
  reset(): void {
    this.#o.cache?.removeItem(SIGN_CONFIG_CACHE_KEY);
    this.#config = undefined;
    this.#serverKey = undefined;
    this.#init = undefined;
    this.state = "uninitialised";
  }

  /** 00020/00021: reload the sign config and initialise again after 2 s. */
  reinitLater(): void {
    this.reset();
    (this.#o.setTimeout ?? setTimeout)(() => void this.init(), SIGN_REINIT_DELAY_MS);
  }

  /** 00023: report the public keys stored here so the server side can compare. */
  async reportStoredKeys(): Promise<void> {
    const [current, backup] = await Promise.all([this.#store.get("current"), this.#store.get("backup")]);
    this.#o.report(
      "signInvalidKeys",
      JSON.stringify({
        current: current?.publicKey ?? null,
        backup: backup?.publicKey ?? null,
        active: this.#active?.keyId ?? null,
      }),
    );
  }

  async #loginKey(): Promise<DeviceKeyPair | undefined> {
    const alg = this.#config?.defaultAlgorithm ?? "ECDSA_P256";
    try {
      await this.#backupJob;
      const backup = await this.#store.get("backup");
      const pair = backup?.algorithm === alg ? backup : await generateDeviceKey(alg);
      await this.#store.put("backup", undefined);
      this.#backupJob = this.#makeBackup(alg);
      return pair;
    } catch (err) {
      this.#o.report("genKeypairFailed", err instanceof Error ? err.message : String(err));
      return undefined;
    }
  }

  #makeBackup(alg: GatewaySignConfig["defaultAlgorithm"]): Promise<void> {
    return generateDeviceKey(alg)
      .then((pair) => this.#store.put("backup", pair))
      .catch((err: unknown) =>
        this.#o.report("genKeypairFailed", err instanceof Error ? err.message : String(err)),
      );
  }

  /** `transformBody` hook: encrypts encrypted paths' bodies; adds the device check on login. */
  readonly transformBody = async (req: { path: string; body: unknown }): Promise<unknown> => {
    if (!isEncryptedPath(req.path)) return req.body;
    await this.init();
    const config = this.#config;
    if (config === undefined || !config.clientOpen) return req.body;
    if (this.#serverKey === undefined) throw new Error("login encryption unavailable");
    const body: Record<string, unknown> = { ...((req.body ?? {}) as Record<string, unknown>) };
    const tm = String(this.now());
    if (config.userCheckDeviceUrl.includes(req.path)) {
      const last = await this.#store.get("current");
      if (last?.hashUserId !== undefined) {
        body.hashUserId = last.hashUserId;
        body.lastAlgorithm = last.algorithm;
        body.deviceCheckTime = tm;
        body.userCheckDeviceSign = await signWith(last, deviceCheckPayload(req.path, last.hashUserId, tm));
      }
    }
    const pair = await this.#loginKey();
    this.#pending = pair;
    try {
      return await encryptLoginBody(
        req.path,
        body,
        this.#serverKey,
        Number(tm),
        pair === undefined
          ? undefined
          : {
              publicKey: pair.publicKey,
              algorithm: pair.algorithm,
              sign: (text) => signWith(pair, text),
            },
      );
    } catch (err) {
      this.#o.report("loginEncryptFailed", err instanceof Error ? err.message : String(err));
      throw err;
    }
  };

  /** After a successful login answer: binds the pair sent with it to the user. */
  async onLoginSuccess(data: unknown): Promise<void> {
    const userId = loginUserId(data);
    const pair = this.#pending;
    this.#pending = undefined;
    if (userId === undefined || pair === undefined) return;
    const bound = { ...pair, userId, hashUserId: await hashUserId(userId) };
    await this.#store.put("current", bound);
    this.#active = { ...bound, keyId: await deviceKeyId(bound.publicKey) };
  }

  /** Session load: sign only when the stored pair belongs to the logged-in user. */
  async onSession(userId: string | undefined): Promise<void> {
    const current = userId === undefined ? undefined : await this.#store.get("current");
    this.#active =
      current?.userId === userId && current !== undefined
        ? { ...current, keyId: await deviceKeyId(current.publicKey) }
        : undefined;
  }

  onLogout(): void {
    this.#active = undefined;
  }

  /**
   * Whether this tab holds the key bound to the current session. False for a logged-in
   * user whose stored key is gone (site data cleared, another browser profile): signed
   * calls then need a re-authentication that binds a new key (see `securityHooks`).
   */
  get hasActiveKey(): boolean {
    return this.#active !== undefined;
  }

  /** `beforeSend` hook: the signing headers for signed paths of a bound session. */
  readonly beforeSend = async (req: {
    path: string;
    url: string;
    body: string | undefined;
    time: number;
  }): Promise<Record<string, string> | undefined> => {
    const config = this.#config;
    const active = this.#active;
    if (config === undefined || !config.clientOpen || active === undefined) return undefined;
    const mode = signModeFor(config, req.path);
    if (mode === undefined) return undefined;
    const tm = String(req.time);
    const traceId = `${tm}-${randomHex(16)}`;
    const bodyMd5 = mode >= 2 ? md5Hex(req.body ?? "") : "";
    const signedUrl = req.url.replace(/^[a-z]+:\/\/[^/]+/i, "");
    return {
      [SignHeader.SIGN]: await signWith(active, signPayload(mode, signedUrl, tm, traceId, bodyMd5)),
      [SignHeader.MODE]: String(mode),
      [SignHeader.DATA_MD5]: bodyMd5,
      [SignHeader.KEY]: active.keyId,
      [SignHeader.TRACE_ID]: traceId,
    };
  };
}

/** The user id of a login answer: `data.userInfo.userId` or `data.accessTokenResVO.userInfo.userId`. */
export function loginUserId(data: unknown): string | undefined {
  const d = data as {
    userInfo?: { userId?: unknown };
    accessTokenResVO?: { userInfo?: { userId?: unknown } };
  } | null;
  const id = d?.userInfo?.userId ?? d?.accessTokenResVO?.userInfo?.userId;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}
