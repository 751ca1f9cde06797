/** Browser security (CSP) reports and user-agent summaries: what other modules may use. */
export { latestReports } from "./repo.ts";
export { securityReportRoutes } from "./routes.ts";
export { describeUserAgent } from "./ua.ts";
