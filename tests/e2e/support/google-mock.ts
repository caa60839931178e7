import http from "node:http";
import { randomUUID } from "node:crypto";
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";

/** The Google account the mock "signs in" with. */
export type GoogleIdentity = {
  email: string;
  name: string;
  sub?: string;
  picture?: string;
  /** The id_token's `email_verified` (default true, as Google sends for its own accounts). */
  emailVerified?: boolean;
  /** Make the code exchange fail (the token endpoint answers invalid_grant), as a revoked consent would. */
  failTokenExchange?: boolean;
};

/** Control path on the mock: POST a GoogleIdentity to choose who the next sign-in is. */
export const NEXT_IDENTITY_PATH = "/__e2e/next-identity";

/**
 * Starts an OpenID Connect mock standing in for Google (discovery, authorize with
 * auto-approval, token, userinfo, JWKS). The backend's Google provider is pointed at it with
 * AUTH_GOOGLE_ISSUER. Each authorization gets the identity queued through NEXT_IDENTITY_PATH,
 * or a fresh unique one, and its id_token / userinfo carry that email and name.
 */
export async function startGoogleMock(
  port: number,
  clientId: string,
): Promise<{ issuer: string; stop: () => Promise<void> }> {
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  // 127.0.0.1 rather than localhost: Node may resolve localhost to ::1 first.
  issuer.url = `http://127.0.0.1:${port}`;
  const service = new OAuth2Service(issuer);

  const queued: GoogleIdentity[] = [];
  const byCode = new Map<string, GoogleIdentity>();
  let last: GoogleIdentity | undefined;

  service.on("beforeAuthorizeRedirect", (redirect: { url: URL }) => {
    const code = redirect.url.searchParams.get("code");
    if (code === null) return;
    const unique = randomUUID().slice(0, 8);
    const identity = queued.shift() ?? { email: `google-${unique}@example.com`, name: `Gabi Google ${unique}` };
    byCode.set(code, { ...identity, sub: identity.sub ?? `google-${identity.email}` });
  });

  service.on(
    "beforeTokenSigning",
    (token: { payload: Record<string, unknown> }, req: { body?: Record<string, unknown> }) => {
      const code = typeof req.body?.code === "string" ? req.body.code : undefined;
      const identity = code !== undefined ? byCode.get(code) : undefined;
      if (!identity) return;
      last = identity;
      Object.assign(token.payload, {
        sub: identity.sub,
        email: identity.email,
        email_verified: identity.emailVerified ?? true,
        name: identity.name,
        ...(identity.picture ? { picture: identity.picture } : {}),
        aud: clientId,
      });
    },
  );

  service.on(
    "beforeResponse",
    (response: { body: unknown; statusCode: number }, req: { body?: Record<string, unknown> }) => {
      const code = typeof req.body?.code === "string" ? req.body.code : undefined;
      if (code !== undefined && byCode.get(code)?.failTokenExchange) {
        response.statusCode = 400;
        response.body = { error: "invalid_grant", error_description: "The user revoked access" };
      }
    },
  );

  service.on("beforeUserinfo", (response: { body: Record<string, unknown> }) => {
    if (!last) return;
    response.body = { sub: last.sub, email: last.email, email_verified: last.emailVerified ?? true, name: last.name };
  });

  // The mock's own app answers 404 to unknown paths, so the control path is routed here first.
  const server = http.createServer((req, res) => {
    if (req.method === "POST" && req.url === NEXT_IDENTITY_PATH) {
      let raw = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (raw += chunk));
      req.on("end", () => {
        let body: Partial<GoogleIdentity> = {};
        try {
          body = JSON.parse(raw) as Partial<GoogleIdentity>;
        } catch {
          // answered below
        }
        if (typeof body.email !== "string" || typeof body.name !== "string") {
          res
            .writeHead(400, { "Content-Type": "application/json" })
            .end(JSON.stringify({ error: "email and name are required" }));
          return;
        }
        queued.push({
          email: body.email,
          name: body.name,
          sub: body.sub,
          picture: body.picture,
          ...(body.emailVerified === false ? { emailVerified: false } : {}),
          failTokenExchange: body.failTokenExchange === true,
        });
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ ok: true }));
      });
      return;
    }
    service.requestHandler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    issuer: issuer.url ?? `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Chooses the Google account used by the next sign-in through the mock (call from a test). */
export async function queueGoogleIdentity(issuer: string, identity: GoogleIdentity): Promise<void> {
  const res = await fetch(new URL(NEXT_IDENTITY_PATH, issuer), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(identity),
  });
  if (!res.ok) throw new Error(`The Google mock refused the identity: ${res.status} ${await res.text()}`);
}
