import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID provider (`oidc-provider`, a certified implementation) in this process, on
 * a free loopback port: authorization code flow with PKCE required. Its login and consent
 * steps are answered by the test: each authorization signs in as `user.subject` (set it
 * before a flow), with a verified e-mail of `<subject>@idp.test`.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization signs in as. */
  user: { subject: string };
  /** Registers the client's redirect URIs (the Meridian server's port is known only later). */
  setRedirectUris(uris: string[]): void;
  /** The `OIDC_PROVIDERS` value naming this provider as `id`. */
  envValue(id: string, name: string): string;
  stop(): Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const clientId = "meridian-test";
  const clientSecret = "meridian-test-secret-0123456789abcdef";
  const user = { subject: "alice" };
  let redirectUris: string[] = [];
  let provider: Provider | undefined;

  const server = http.createServer((req, res) => {
    if (provider === undefined) {
      res.statusCode = 503;
      res.end();
      return;
    }
    const p = provider;
    if (req.url?.startsWith("/interaction/")) {
      void interact(p, req, res, user.subject).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    p.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = () => {
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_post",
        },
      ],
      pkce: { required: () => true },
      // Short lives for everything a test flow makes (and no notices about the defaults).
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
      },
      features: { devInteractions: { enabled: false } },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({ sub, email: `${sub}@idp.test`, email_verified: true, name: `User ${sub}` }),
      }),
      // The ID token carries the claims (no userinfo call needed by the client).
      conformIdTokenClaims: false,
    });
  };
  build();

  return {
    issuer,
    clientId,
    clientSecret,
    user,
    setRedirectUris(uris) {
      redirectUris = uris;
      build();
    },
    envValue: (id, name) => JSON.stringify([{ id, name, issuer, clientId, clientSecret }]),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The provider's login and consent steps, answered at once for `subject`. */
async function interact(
  provider: Provider,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  subject: string,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: subject } });
    return;
  }
  const clientId = String(details.params.client_id);
  const grant = new provider.Grant({ accountId: details.session?.accountId ?? subject, clientId });
  grant.addOIDCScope(String(details.params.scope));
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
}

/**
 * Follows the provider's redirects as a browser would (cookies kept) from the authorization
 * URL until one leaves for `redirectPrefix`: that URL's query string (the callback).
 */
export async function walkAuthorization(authorizationUrl: string, redirectPrefix: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get("location");
    if (location === null)
      throw new Error(`the provider stopped at ${url}: ${res.status} ${await res.text()}`);
    const next = new URL(location, url).href;
    if (next.startsWith(redirectPrefix)) return new URL(next).search;
    url = next;
  }
  throw new Error("too many redirects");
}
