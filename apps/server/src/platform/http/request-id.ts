import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Header, REQUEST_ID_PATTERN } from "@meridian/contracts";

/** Honours a well-formed incoming `x-request-id` (so a trace spans proxies), else a fresh UUID. */
export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers[Header.REQUEST_ID];
  return typeof incoming === "string" && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}
