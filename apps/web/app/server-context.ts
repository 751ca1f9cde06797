// The token lives in @meridian/ssr-context, shared with the server (see vite.config.ts).
export { type ServerContext, serverContext } from "@meridian/ssr-context";
