/**
 * A crowd of signed-in comedians on a backend running the app's own functions:
 * accounts made by `fixtures:insertComedians` (no password hashing), each with
 * a token signed by the backend's own key, as Convex Auth issues them. Shared
 * by the burst tests and the bench.
 */
import { ConvexHttpClient } from "convex/browser";
import { importPKCS8, SignJWT } from "jose";
import type { Backend } from "./harness";

export type Person = { userId: string; sessionId: string };

/** Runs a CLI command on the backend; throws with its stderr when it fails. */
export async function cliOk(backend: Backend, args: string[]): Promise<string> {
  const r = await backend.cli(args);
  if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** `count` new comedians ("<prefix> 1", ...) with a signed-in HTTP client each. */
export async function signedInComedians(
  backend: Backend,
  prefix: string,
  count: number,
): Promise<Array<Person & { client: ConvexHttpClient }>> {
  const people = JSON.parse(
    await cliOk(backend, ["run", "fixtures:insertComedians", JSON.stringify({ prefix, count })]),
  ) as Person[];
  const key = await importPKCS8(await cliOk(backend, ["env", "get", "JWT_PRIVATE_KEY"]), "RS256");
  const issuer = await cliOk(backend, ["env", "get", "CONVEX_SITE_URL"]);
  return await Promise.all(
    people.map(async (p) => {
      const client = new ConvexHttpClient(backend.url);
      client.setAuth(
        await new SignJWT({ sub: `${p.userId}|${p.sessionId}` })
          .setProtectedHeader({ alg: "RS256" })
          .setIssuedAt()
          .setIssuer(issuer)
          .setAudience("convex")
          .setExpirationTime("1h")
          .sign(key),
      );
      return { ...p, client };
    }),
  );
}
