/** System calls (domain configuration list). */
export { routes as systemRoutes } from "./routes.ts";
