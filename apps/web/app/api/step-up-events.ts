/**
 * A step-up code request: a sensitive change answered 11036 and the account has no passkey
 * to confirm with, so the authenticator's code (or a recovery code) is asked for in a
 * dialog (`ReauthGate` shows it). No dependencies, like reauth-events.
 */
export type StepUpProof = { googleCode: string } | { recoveryCode: string };

interface Pending {
  resolve: (proof: StepUpProof | undefined) => void;
}

let current: Pending | undefined;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Opens the dialog; resolves with what was typed, or undefined when it was cancelled. */
export function requestStepUpCode(): Promise<StepUpProof | undefined> {
  current?.resolve(undefined);
  return new Promise((resolve) => {
    current = { resolve };
    emit();
  });
}

/** Closes the dialog with its answer (undefined: cancelled). */
export function endStepUp(proof: StepUpProof | undefined): void {
  const pending = current;
  current = undefined;
  emit();
  pending?.resolve(proof);
}

export function pendingStepUp(): Pending | undefined {
  return current;
}

export function subscribeStepUp(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
