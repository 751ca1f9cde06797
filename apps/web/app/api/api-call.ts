import { type ApiClient, type HttpMethod, isApiError } from "@meridian/client";
import type { FieldIssue } from "@meridian/contracts";
import { accountClient } from "./account-client.ts";

/** The tab's one API client (signing, locale, simulation header, forced logout). */
export const api = (): ApiClient => accountClient().api;

/** The client's api name for a `/v1/...` path constant (no leading slash). */
export const apiName = (path: string): string => path.replace(/^\//, "");

/**
 * An administrator call (cookie session; the server checks the admin role and the
 * Origin). A refused call rejects with the ApiError, whose message is the server's.
 */
export function adminCall<T>(path: string, method: HttpMethod, payload?: unknown): Promise<T> {
  return api().request<T>(method, apiName(path), payload, { silent: true });
}

/** The field issues a validation refusal names (none for any other failure). */
export function fieldIssues(error: unknown): FieldIssue[] {
  return isApiError(error) && Array.isArray(error.data) ? (error.data as FieldIssue[]) : [];
}
