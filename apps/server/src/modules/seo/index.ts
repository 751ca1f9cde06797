/** Page metadata (titles, descriptions) and its admin: the module's routes and seed. */
export { routes as seoRoutes } from "./routes.ts";
export { pageMetaSeed } from "./seed.ts";
