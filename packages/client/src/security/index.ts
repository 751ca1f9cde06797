export {
  type DeviceKeyPair,
  generateDeviceKey,
  IndexedDbKeyStore,
  type KeyStore,
  MemoryKeyStore,
  signWith,
} from "./device-keys.ts";
export {
  GatewaySecurity,
  type GatewaySecurityOptions,
  loginUserId,
  type SignSetupState,
} from "./gateway-security.ts";
export { encryptLoginBody, LoginEncryptError, verifyServerKey } from "./login-crypto.ts";
export { md5Hex } from "./md5.ts";
export { type SecurityUi, securityHooks } from "./reactions.ts";
export { loadSession } from "./session.ts";
