import type { AttemptCounter, AttemptPolicy } from "../../platform/attempts/index.ts";

/**
 * The accounts module's attempt limits (platform/attempts counts each try before the
 * secret is checked, so parallel tries share these budgets).
 */

/** Guesses at one account's password or second factor: 5, then 1, 2, 4, 8, 15 min blocks. */
export const ACCOUNT_POLICY: AttemptPolicy = {
  threshold: 5,
  baseMs: 60_000,
  capMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** Wrong secrets of any kind from one client address: a wider budget, for shared addresses. */
export const IP_POLICY: AttemptPolicy = {
  threshold: 30,
  baseMs: 60_000,
  capMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** Codes sent to one address: 5, then a 10 min wait, doubling up to an hour. */
export const SEND_RECIPIENT_POLICY: AttemptPolicy = {
  threshold: 5,
  baseMs: 10 * 60_000,
  capMs: 60 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** Codes one client address may have sent (to any recipients) before it waits. */
export const SEND_IP_POLICY: AttemptPolicy = {
  threshold: 10,
  baseMs: 10 * 60_000,
  capMs: 60 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** Password guesses for one account (login and password change share it). */
export function passwordCounter(account: { userId: string } | { loginName: string }): AttemptCounter {
  const key = "userId" in account ? `pwd:user:${account.userId}` : `pwd:name:${account.loginName}`;
  return { key, policy: ACCOUNT_POLICY, onSuccess: "reset" };
}

/** Second-factor guesses for one user: login codes, authenticator codes. */
export function secondFactorCounter(userId: string): AttemptCounter {
  return { key: `2fa:user:${userId}`, policy: ACCOUNT_POLICY, onSuccess: "reset" };
}

/** Refused third-party sign-ins naming one account (a forged Telegram hash for its identity). */
export function thirdPartyCounter(userId: string): AttemptCounter {
  return { key: `third:user:${userId}`, policy: ACCOUNT_POLICY, onSuccess: "reset" };
}

/** Wrong secrets from one client address (every check above also counts here). */
export function ipCounter(ip: string): AttemptCounter {
  return { key: `ip:${ip}`, policy: IP_POLICY, onSuccess: "refund" };
}

export function sendRecipientCounter(address: string): AttemptCounter {
  return { key: `send:to:${address}`, policy: SEND_RECIPIENT_POLICY, onSuccess: "refund" };
}

export function sendIpCounter(ip: string): AttemptCounter {
  return { key: `send:ip:${ip}`, policy: SEND_IP_POLICY, onSuccess: "refund" };
}
