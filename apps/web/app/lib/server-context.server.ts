import type { RouterContextProvider } from "react-router";
import { type ServerContext, serverContext } from "../server-context.ts";

/**
 * The Fastify-provided context, or undefined when the app runs without it (Vite dev
 * server, or before the platform seeds it): loaders must work either way.
 */
export function readServerContext(
  context: Readonly<RouterContextProvider> | undefined,
): ServerContext | undefined {
  if (!context || typeof context.get !== "function") return undefined;
  try {
    return context.get(serverContext);
  } catch {
    return undefined;
  }
}
