import { MEDIA_MAX_SCREENSHOTS, MEDIA_OWNERS, MEDIA_ROLES } from "./media-rules.ts";
import { z } from "./zod-csp.ts";

export * from "./media-rules.ts";

/** A stored asset's id: 32 lower-case hex digits of the content hash. */
export const mediaAssetId = z.string().regex(/^[a-f0-9]{32}$/, "an uploaded image id");

export const mediaRoleSchema = z.enum(MEDIA_ROLES);

export const mediaLinksParamsSchema = z.object({
  owner: z.enum(MEDIA_OWNERS),
  slug: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lower-case words joined by hyphens"),
});

export const mediaLinksBodySchema = z.object({
  logo: mediaAssetId.nullable(),
  cover: mediaAssetId.nullable(),
  screenshots: z.array(mediaAssetId).max(MEDIA_MAX_SCREENSHOTS),
});

/** `<id>-<width>.webp`: the only file names the media route serves. */
export const mediaFileParamsSchema = z.object({
  file: z.string().regex(/^[a-f0-9]{32}-\d{2,4}\.webp$/, "an image file name"),
});
