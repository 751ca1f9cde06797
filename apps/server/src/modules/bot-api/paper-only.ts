import { BitgetCode, BitgetError } from "./bitget.ts";
import type { V2Router } from "./v2-scope.ts";

/**
 * Bitget endpoints that move real coins (deposits, withdrawals, deposit addresses): a
 * paper account has none, so a signed call answers Bitget's envelope saying so
 * (40014, ccxt PermissionDenied), after the key checks as on Bitget, instead of 40404.
 */
const WALLET_GETS = [
  "/v2/spot/wallet/deposit-address",
  "/v2/spot/wallet/deposit-records",
  "/v2/spot/wallet/withdrawal-records",
  "/v2/spot/wallet/subaccount-deposit-address",
  "/v2/spot/wallet/subaccount-deposit-records",
];
const WALLET_POSTS = [
  "/v2/spot/wallet/withdrawal",
  "/v2/spot/wallet/cancel-withdrawal",
  "/v2/spot/wallet/modify-deposit-account",
];

export const NOT_ON_PAPER_MSG = "Deposits and withdrawals are not available on paper trading";

function refuse(): never {
  throw new BitgetError(BitgetCode.PERMISSION, NOT_ON_PAPER_MSG);
}

export function registerPaperOnly(router: V2Router): void {
  for (const path of WALLET_GETS) router.get(path, { perm: "read", limit: "query" }, refuse);
  for (const path of WALLET_POSTS) router.post(path, { perm: "read", limit: "trade" }, refuse);
}
