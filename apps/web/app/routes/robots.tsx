import { serverOf } from "../features/airdrops/api.server.ts";
import { robotsTxt } from "../features/seo/robots.server.ts";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const server = serverOf(context);
  return new Response(robotsTxt(server.origin), {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
