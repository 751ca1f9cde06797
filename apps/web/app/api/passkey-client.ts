import { isApiError } from "@meridian/client";
import type { PasskeyDto } from "@meridian/contracts";
import { accountClient } from "./account-client.ts";
import { requestStepUpCode } from "./step-up-events.ts";

/** What a cancelled step-up throws (the page shows it as the change's failure). */
const STEP_UP_CANCELLED = "Cancelled";

/**
 * The browser side of passkeys: the WebAuthn library is loaded only when a passkey is
 * used, and every credential travels as the JSON string the server parses
 * (`fidoVerifyCode`, `credential`).
 */
async function webauthn() {
  return import("@simplewebauthn/browser");
}

/** Asks the authenticator for an assertion against `options` (from the server). */
export async function passkeyAssertion(options: unknown): Promise<string> {
  const { startAuthentication } = await webauthn();
  const optionsJSON = options as Parameters<typeof startAuthentication>[0]["optionsJSON"];
  return JSON.stringify(await startAuthentication({ optionsJSON }));
}

/** Signs in with any passkey of this site (the authenticator offers its accounts). */
export async function signInWithPasskey(): Promise<unknown> {
  const api = accountClient().api;
  const options = await api.post<unknown>("v1/user/public/passkey/options", {}, { silent: true });
  const fidoVerifyCode = await passkeyAssertion(options);
  return api.post("v1/user/login/passkey", { fidoVerifyCode }, { silent: true });
}

/** A passkey assertion for the logged-out password reset (`fidoVerifyCode` of the reset body). */
export async function resetPasskeyAssertion(): Promise<string> {
  const options = await accountClient().api.post<unknown>(
    "v1/user/public/password/reset/options",
    {},
    { silent: true },
  );
  return passkeyAssertion(options);
}

/** Makes a new passkey for the logged-in account and registers it under `name`. */
export async function addPasskey(name: string): Promise<PasskeyDto> {
  const { startRegistration } = await webauthn();
  const api = accountClient().api;
  const optionsJSON = await api.post<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
    "v1/user/passkey/register/options",
    {},
    { silent: true },
  );
  const credential = JSON.stringify(await startRegistration({ optionsJSON }));
  return api.post<PasskeyDto>("v1/user/passkey/register", { name, credential }, { silent: true });
}

/** The step-up answer code (SecurityCode.STEP_UP_REQUIRED): the change needs a fresh factor. */
const STEP_UP_REQUIRED = "11036";

/**
 * Runs a sensitive change; when the server asks for a step-up (the account has a passkey
 * and the session proved no factor in the last 5 minutes), confirms with a passkey, which
 * the browser prompts for, and runs the change once more.
 */
export async function withStepUp<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (!isApiError(err) || err.code !== STEP_UP_REQUIRED) throw err;
  }
  const api = accountClient().api;
  const options = await api.post<{ allowCredentials?: unknown[] }>(
    "v1/user/security/stepUp/options",
    {},
    {
      silent: true,
    },
  );
  if ((options.allowCredentials ?? []).length > 0) {
    const fidoVerifyCode = await passkeyAssertion(options);
    await api.post("v1/user/security/stepUp", { fidoVerifyCode }, { silent: true });
  } else {
    // No passkey: the authenticator's code, typed into the step-up dialog.
    const proof = await requestStepUpCode();
    if (proof === undefined) throw new Error(STEP_UP_CANCELLED);
    await api.post("v1/user/security/stepUp", proof, { silent: true });
  }
  return change();
}
