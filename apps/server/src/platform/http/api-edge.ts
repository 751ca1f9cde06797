import { Code, type Envelope, type FieldIssue, fail } from "@meridian/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { z } from "zod";
import { AppError, errors } from "../errors.ts";
import { isSiteOrigin, type SiteOriginPolicy } from "./public-origin.ts";
import { keepRawBody } from "./raw-body.ts";

export interface EdgeAnswer {
  status: number;
  body: Envelope<unknown>;
  headers: Record<string, string>;
}

interface CodedError {
  code: string;
  status: number;
  message: string;
  data?: unknown;
  headers?: Record<string, string>;
}

/**
 * A module's own error class counts as an AppError when it carries a catalogue code
 * (five digits) and an HTTP status: the edge need not know every module's class.
 */
function isCodedError(error: unknown): error is CodedError {
  if (!(error instanceof Error)) return false;
  const { code, status } = error as Partial<CodedError>;
  return (
    typeof code === "string" &&
    /^\d{5}$/.test(code) &&
    typeof status === "number" &&
    status >= 400 &&
    status < 600
  );
}

function fieldIssues(error: z.ZodError, part: string | undefined): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return {
      field: path === "" ? (part ?? "body") : path,
      rule: issue.code,
      message: issue.message,
    };
  });
}

/**
 * Maps anything thrown while answering a `/v1` request to its envelope. Only AppError
 * and the framework's request-shape errors say what went wrong; everything else is a
 * generic 500 (the detail goes to the log, never to the client).
 */
export function toEdgeAnswer(error: unknown): EdgeAnswer {
  if (error instanceof AppError || isCodedError(error)) {
    return {
      status: error.status,
      body: fail(error.code, error.message, error.data ?? null),
      headers: error.headers ?? {},
    };
  }
  const validationPart = (error as { validationContext?: string } | null)?.validationContext;
  if (error instanceof z.ZodError) {
    const app = errors.validation(
      fieldIssues(error, validationPart === "querystring" ? "query" : validationPart),
    );
    return toEdgeAnswer(app);
  }
  const code = (error as FastifyError | null)?.code;
  const edge = (status: number, c: string, msg: string): EdgeAnswer => ({
    status,
    body: fail(c, msg),
    headers: {},
  });
  switch (code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return edge(400, Code.MALFORMED_JSON, "Malformed JSON in request body");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return edge(413, Code.BODY_TOO_LARGE, "Request body is too large");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return edge(400, Code.MALFORMED_JSON, "Request body length does not match Content-Length");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return edge(415, Code.UNSUPPORTED_MEDIA_TYPE, "Unsupported Content-Type; send application/json");
    case "FST_CP_ERR_INVALID_CONTENT":
      return edge(400, Code.MALFORMED_JSON, "Request body does not match its Content-Encoding");
    case "FST_CP_ERR_INVALID_CONTENT_ENCODING":
      return edge(415, Code.UNSUPPORTED_MEDIA_TYPE, "Unsupported Content-Encoding");
    case "FST_ERR_BAD_URL":
    case "FST_ERR_INVALID_URL":
    case "FST_ERR_MAX_PARAM_LENGTH":
    case "FST_ERR_VALIDATION":
      return edge(400, Code.VALIDATION_FAILED, "Invalid request");
  }
  // Framework and plugin errors that already know the request was at fault (a body
  // stream that broke off, a payload a plugin refused) stay client errors: a malformed
  // request never answers 5xx.
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    if (status === 413) return edge(413, Code.BODY_TOO_LARGE, "Request body is too large");
    if (status === 415) return edge(415, Code.UNSUPPORTED_MEDIA_TYPE, "Unsupported request encoding");
    if (status === 404) return edge(404, Code.NOT_FOUND, "Not found");
    return edge(400, Code.MALFORMED_JSON, "Malformed request");
  }
  return edge(500, Code.INTERNAL, "Internal server error");
}

/** Longest `msg` an error answer carries. */
export const MAX_ERROR_MSG = 300;
/** Largest serialised `data` an error answer carries; past it the detail is cut down. */
export const MAX_ERROR_DATA_BYTES = 4096;

/**
 * Error answers are bounded whatever the error holds: a message quoting the input, or
 * one issue per field of a large body, would otherwise make the answer grow with the
 * request (an amplifier). `data` keeps as many leading issues as fit.
 */
export function boundAnswer(body: Envelope<unknown>): Envelope<unknown> {
  const msg = body.msg.length > MAX_ERROR_MSG ? `${body.msg.slice(0, MAX_ERROR_MSG - 1)}\u2026` : body.msg;
  let data = body.data;
  if (data !== null && data !== undefined && JSON.stringify(data).length > MAX_ERROR_DATA_BYTES) {
    if (Array.isArray(data)) {
      const kept: unknown[] = [];
      let size = 2;
      for (const item of data) {
        size += JSON.stringify(item).length + 1;
        if (size > MAX_ERROR_DATA_BYTES) break;
        kept.push(item);
      }
      data = kept;
    } else {
      data = null;
    }
  }
  return msg === body.msg && data === body.data ? body : { code: body.code, msg, data };
}

export function sendEdgeAnswer(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const answer = toEdgeAnswer(error);
  if (answer.status >= 500) {
    request.log.error({ err: error }, "request failed");
  } else {
    request.log.info({ code: answer.body.code, msg: answer.body.msg }, "request rejected");
  }
  return reply
    .status(answer.status)
    .headers(answer.headers)
    .type("application/json; charset=utf-8")
    .send(boundAnswer(answer.body));
}

const METHODS: HTTPMethods[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The `/v1` scope's edge: the envelope error handler, an empty-tolerant JSON parser,
 * and a `/v1/*` catch-all that tells an unknown route (10404) from a known route called
 * with the wrong method (10405).
 */
export function installApiEdge(api: FastifyInstance, sockets: SiteOriginPolicy): void {
  guardWebSockets(api, sockets);
  api.setErrorHandler((error, request, reply) => sendEdgeAnswer(request, reply, error));
  api.setNotFoundHandler((request, reply) => sendEdgeAnswer(request, reply, errors.notFound()));

  // A POST with `Content-Type: application/json` and no body is how the spec's client
  // sends "empty" payloads (logout, clearCookie): read it as no body, not bad JSON.
  const jsonParser = api.getDefaultJsonParser("error", "error");
  api.removeContentTypeParser("application/json");
  // As a buffer: the exact bytes are kept for the gateway's body signature (raw-body.ts).
  api.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const bytes = body as Buffer;
    keepRawBody(request, bytes);
    const text = bytes.toString();
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    jsonParser(request, text, done);
  });

  api.all("/v1/*", async (request, reply) => {
    const path = request.url.split("?")[0] ?? request.url;
    const allowed = METHODS.filter((method) => {
      if (method === request.method) return false;
      const found = api.findRoute({ method, url: path });
      // The catch-all itself matches every method; it is the one with a `*` param.
      return found !== null && (found.params as Record<string, string>)["*"] === undefined;
    });
    if (allowed.length > 0)
      return sendEdgeAnswer(request, reply, errors.methodNotAllowed(request.method, allowed));
    return sendEdgeAnswer(request, reply, errors.notFound(`No API route ${request.method} ${path}`));
  });
}

/**
 * Every WebSocket route of the scope (routes declared `websocket: true`, now or by a
 * later module) checks the upgrade before it happens:
 *
 * - A browser always sends `Origin` on a WebSocket handshake, and sends the site's
 *   cookies with it whatever page opened it; so a socket opened by another site would
 *   read the visitor's orders and balances (cross-site WebSocket hijacking). An Origin
 *   that is not one of the site's own is refused with 403 before the upgrade. A client
 *   that sends no Origin is not a browser, and holds whatever cookie it sends itself.
 * - A plain GET (no upgrade) answers 426 in the envelope, not an empty 404.
 */
function guardWebSockets(api: FastifyInstance, policy: SiteOriginPolicy): void {
  api.addHook("onRoute", (route) => {
    if ((route as { websocket?: boolean }).websocket !== true) return;
    const own = route.onRequest;
    const check = async (request: FastifyRequest, reply: FastifyReply) => {
      const upgrade = request.headers.upgrade;
      if (typeof upgrade !== "string" || upgrade.toLowerCase() !== "websocket") {
        return sendEdgeAnswer(
          request,
          reply,
          new AppError(Code.UPGRADE_REQUIRED, "This is a WebSocket endpoint; open it with an upgrade", {
            status: 426,
            headers: { upgrade: "websocket" },
          }),
        );
      }
      const origin = request.headers.origin;
      if (origin !== undefined && !isSiteOrigin(origin, request.headers.host, policy)) {
        // The connection was handed over for an upgrade: it ends with this answer.
        reply.header("connection", "close");
        return sendEdgeAnswer(request, reply, errors.forbidden("WebSocket from another origin refused"));
      }
      return undefined;
    };
    route.onRequest = own === undefined ? [check] : [check, ...(Array.isArray(own) ? own : [own])];
  });
}
