import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { paintFirstTransform } from "./features/shell/paint-first.server.ts";
import { routePaintsFirst } from "./features/shell/paint-first.ts";
import { serverContext } from "./server-context.ts";

export const streamTimeout = 5_000;

/** The CSP nonce the Fastify server put in this request's context (absent outside it). */
function readNonce(loadContext: RouterContextProvider): string | undefined {
  try {
    return loadContext.get(serverContext).nonce;
  } catch {
    return undefined;
  }
}

/**
 * React Router's default Node entry, plus the CSP nonce: React's own inline scripts
 * (`nonce` option) and React Router's (`<ServerRouter nonce>`, which `<Scripts>`,
 * `<ScrollRestoration>` and the streamed data scripts inherit) all carry it. Public content
 * pages hydrate after their first paint (features/shell/paint-first.ts).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = readNonce(loadContext);
  const paintFirst = routePaintsFirst(
    routerContext.staticHandlerContext.matches.map(
      (match) => routerContext.routeModules[match.route.id]?.handle,
    ),
  );

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Bots and SPA mode wait for all content, so crawlers get complete HTML.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort after `streamTimeout` so rejected boundaries still have time to flush.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(
            paintFirst ? body.pipe(paintFirstTransform()) : body,
          );
          responseHeaders.set("Content-Type", "text/html");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Shell errors reject and are logged by React Router; these come later, mid-stream.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
