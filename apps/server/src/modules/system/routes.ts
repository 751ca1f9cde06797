import { DOMAIN_CONFIG_LIST_PATH } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { route } from "../../platform/http/route.ts";
import type { Platform } from "../../platform/platform.ts";
import { domainConfigList } from "./service.ts";

export function routes(app: FastifyInstance, platform: Platform): void {
  route(app, {
    method: "GET",
    url: DOMAIN_CONFIG_LIST_PATH,
    // The client probes these hosts to pick the fast one: never rewrite them.
    config: { fastImage: false },
    handler: () => domainConfigList(platform.config),
  });
}
