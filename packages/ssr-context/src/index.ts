import { createContext } from "react-router";

/**
 * What the Fastify process hands every React Router loader and action.
 *
 * NOTE: the server seeds this token in `getLoadContext`; the web build keeps this
 * module external (see vite.config.ts) so server and app share one token instance.
 */
export interface ServerContext {
  /** Per-request id (also in the pino logs and the `x-request-id` header). */
  requestId: string;
  /** CSP nonce for this response: every inline script React Router emits carries it. */
  nonce: string;
  /** The request's own origin (scheme + host), for absolute links on regional domains. */
  origin: string;
  /**
   * Calls the `/v1` API in-process (no socket), forwarding the visitor's cookies and
   * locale headers. Resolves to the parsed `{code, msg, data}` envelope.
   */
  api<T>(
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{
    code: string;
    msg: string;
    data: T;
  }>;
}

export const serverContext = createContext<ServerContext>();
