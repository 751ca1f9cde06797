import multipart from "@fastify/multipart";
import {
  Code,
  MEDIA_API,
  MEDIA_MAX_BYTES,
  mediaFileParamsSchema,
  mediaLinksBodySchema,
  mediaLinksParamsSchema,
  mediaRoleSchema,
  SignMode,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, errors } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import { sameGuardAs } from "../../platform/http/route-table.ts";
import { requireAdmin } from "../accounts/index.ts";
import { type MediaService, WEBP } from "./service.ts";

const adminOnly = sameGuardAs(async function adminOnly(request: FastifyRequest, reply: FastifyReply) {
  await requireAdmin.call(request.server, request, reply);
}, requireAdmin);

/** Room for the multipart envelope around the file: boundaries, part headers, the role field. */
const ENVELOPE_BYTES = 16 * 1024;
export const UPLOAD_LIMIT = { limit: 60, windowMs: 60_000 };

const tooLarge = () =>
  new AppError(
    Code.BODY_TOO_LARGE,
    `The file is larger than ${Math.floor(MEDIA_MAX_BYTES / (1024 * 1024))} MB; upload a smaller image`,
    { status: 413 },
  );

/**
 * What a failure while reading the multipart stream tells the client. Everything that can
 * fail there is the body's doing: the framework's limits carry a 4xx status, and busboy's
 * own parse errors (no boundary, a body cut short, a malformed part header) carry none.
 */
function multipartError(error: unknown): AppError {
  const { code, statusCode, message } = error as { code?: string; statusCode?: number; message?: string };
  if (code === "FST_REQ_FILE_TOO_LARGE" || statusCode === 413) return tooLarge();
  const detail = typeof message === "string" ? message.replace(/^Multipart: /, "").slice(0, 120) : "";
  return new AppError(
    Code.MALFORMED_JSON,
    `The multipart body could not be read${detail ? `: ${detail}` : ""}`,
    {
      status: 400,
    },
  );
}

/**
 * Upload (administrators, multipart, signed), the links editor (administrators, signed
 * with the body) and the public, immutable files.
 */
export async function mediaRoutes(app: FastifyInstance, service: MediaService): Promise<void> {
  // Multipart is parsed in this scope only: every other route keeps refusing it (415).
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: MEDIA_MAX_BYTES,
        files: 1,
        fields: 4,
        fieldSize: 256,
        parts: 5,
        headerPairs: 20,
      },
    });
    route(scope, {
      method: "POST",
      url: MEDIA_API.upload,
      auth: adminOnly,
      // The body is a multipart stream the browser frames itself, so the signature covers
      // path, time and trace id (mode 1); the session's device key still has to sign it.
      sign: SignMode.PATH_TIME_TRACE,
      rateLimit: UPLOAD_LIMIT,
      bodyLimit: MEDIA_MAX_BYTES + ENVELOPE_BYTES,
      handler: async ({ request }) => {
        // Refused before a byte of the body is read when the length is declared too large.
        const declared = Number(request.headers["content-length"] ?? "0");
        if (declared > MEDIA_MAX_BYTES + ENVELOPE_BYTES) throw tooLarge();
        if (!request.isMultipart())
          throw new AppError(Code.UNSUPPORTED_MEDIA_TYPE, "Send the image as multipart/form-data", {
            status: 415,
          });
        let role: string | undefined;
        let bytes: Buffer | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === "field") {
              if (part.fieldname === "role") role = String(part.value);
            } else if (part.fieldname === "file" && bytes === undefined) {
              // The client's file name and declared type are ignored: the bytes decide.
              bytes = await part.toBuffer();
            } else {
              part.file.resume();
            }
          }
        } catch (error) {
          throw multipartError(error);
        }
        const parsedRole = mediaRoleSchema.safeParse(role);
        if (!parsedRole.success)
          throw errors.validation([{ field: "role", rule: "enum", message: "logo, cover or screenshot" }]);
        if (bytes === undefined || bytes.length === 0)
          throw errors.validation([{ field: "file", rule: "required", message: "attach an image file" }]);
        return service.upload(bytes, parsedRole.data);
      },
    });
  });

  route(app, {
    method: "GET",
    url: MEDIA_API.links,
    auth: adminOnly,
    params: mediaLinksParamsSchema,
    handler: ({ params }) => service.links(params.owner, params.slug),
  });
  route(app, {
    method: "PUT",
    url: MEDIA_API.links,
    auth: adminOnly,
    sign: SignMode.PATH_TIME_TRACE_BODY,
    params: mediaLinksParamsSchema,
    body: mediaLinksBodySchema,
    handler: ({ params, body }) => service.setLinks(params.owner, params.slug, body),
  });

  app.get(MEDIA_API.file, { config: { fastImage: false } }, async (request, reply) => {
    const { file } = mediaFileParamsSchema.parse(request.params);
    const body = await service.file(file);
    if (body === undefined) throw errors.notFound("No such image");
    // The name is a hash of the content: it never changes, so caches keep it for a year.
    return reply
      .header("content-type", WEBP)
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("etag", `"${file.slice(0, -5)}"`)
      .header("content-security-policy", "default-src 'none'; sandbox")
      .header("x-content-type-options", "nosniff")
      .header("cross-origin-resource-policy", "same-site")
      .send(body);
  });
}
