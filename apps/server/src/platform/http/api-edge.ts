import { Code, type Envelope, type FieldIssue, fail } from "@meridian/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { z } from "zod";
import { AppError, errors } from "../errors.ts";

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
      return edge(400, Code.MALFORMED_JSON, "Malformed JSON in request body");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return edge(413, Code.BODY_TOO_LARGE, "Request body is too large");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return edge(400, Code.MALFORMED_JSON, "Request body length does not match Content-Length");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return edge(415, Code.UNSUPPORTED_MEDIA_TYPE, "Unsupported Content-Type; send application/json");
    case "FST_ERR_BAD_URL":
    case "FST_ERR_VALIDATION":
      return edge(400, Code.VALIDATION_FAILED, "Invalid request");
    default:
      return edge(500, Code.INTERNAL, "Internal server error");
  }
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
    .send(answer.body);
}

const METHODS: HTTPMethods[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The `/v1` scope's edge: the envelope error handler, an empty-tolerant JSON parser,
 * and a `/v1/*` catch-all that tells an unknown route (10404) from a known route called
 * with the wrong method (10405).
 */
export function installApiEdge(api: FastifyInstance): void {
  api.setErrorHandler((error, request, reply) => sendEdgeAnswer(request, reply, error));
  api.setNotFoundHandler((request, reply) => sendEdgeAnswer(request, reply, errors.notFound()));

  // A POST with `Content-Type: application/json` and no body is how the spec's client
  // sends "empty" payloads (logout, clearCookie): read it as no body, not bad JSON.
  const jsonParser = api.getDefaultJsonParser("error", "error");
  api.removeContentTypeParser("application/json");
  api.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
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
