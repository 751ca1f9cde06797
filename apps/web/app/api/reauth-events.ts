/**
 * A re-authentication request: the session is valid but this browser lost the device key
 * bound to it (site data cleared), so signed calls answer 00020 until a password step
 * binds a new key. The API client raises it; `ReauthGate` shows the dialog. No
 * dependencies, so the root can listen without loading the API client.
 */
export interface ReauthRequest {
  /** The account's login name, shown and sent with the password. */
  loginName: string;
  /** Sent with a phone login name. */
  areaCode?: string;
}

let current: ReauthRequest | undefined;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Asks for a re-authentication (one at a time: a second request while one is open is ignored). */
export function requestReauth(request: ReauthRequest): void {
  if (current !== undefined) return;
  current = request;
  emit();
}

/** Closes the open request (done or cancelled). */
export function endReauth(): void {
  current = undefined;
  emit();
}

export function pendingReauth(): ReauthRequest | undefined {
  return current;
}

export function subscribeReauth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
