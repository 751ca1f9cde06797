import { z } from "./zod-csp.ts";

/** `GET /v1/mix/system/getDomainConfigList` (docs/product.md §7). */
export const domainConfigListSchema = z.object({
  imgDomainConfig: z.object({
    /** Image hosts for visitors outside the internal region. */
    foreignDomainList: z.array(z.string()),
    /** Image hosts for visitors inside it. */
    internalDomainList: z.array(z.string()),
  }),
});
export type DomainConfigList = z.infer<typeof domainConfigListSchema>;

export const DOMAIN_CONFIG_LIST_PATH = "/v1/mix/system/getDomainConfigList";

/** `GET /healthz`: liveness plus a database ping. */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  db: z.enum(["ok", "down"]),
  redis: z.enum(["ok", "down", "absent"]),
});
export type Health = z.infer<typeof healthSchema>;
