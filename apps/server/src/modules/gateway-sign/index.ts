/**
 * Gateway request signing (docs/security-gateway.md): what other modules may use. The
 * accounts module registers it first so its hooks cover every later route.
 */
export {
  loadSignSettings,
  SIGNED_WRITE_PREFIXES,
  type SignSettings,
  signUrls,
  unsignedWrites,
} from "./config.ts";
export { verifyDeviceSignature } from "./device-key.ts";
export { generateServerKeys, loadServerKeys, type ServerKeys, serverKeyEnv } from "./keys.ts";
export { MemoryReplayStore, RedisReplayStore, type ReplayStore } from "./replay.ts";
export { deviceOf, registerGatewaySign } from "./routes.ts";
