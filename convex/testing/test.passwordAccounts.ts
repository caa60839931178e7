/** Password accounts for the sign-in limit tests (authLockout.test.ts, authSignInLimits.test.ts). */
import { api } from "../_generated/api";
import type { TestBackend } from "./test.setup";

/** `auth:signIn` with the password provider, as the sign-in form sends it. */
export function passwordSignIn(t: TestBackend, email: string, password: string, flow: "signIn" | "signUp" = "signIn") {
  return t.action(api.auth.signIn, { provider: "password", params: { email, password, flow } });
}

/**
 * `count` real password accounts `${prefix}-i@example.com`, all with the
 * password "right-password": the first signs up, the others get a copy of its
 * stored hash (one hashing instead of `count`).
 */
export async function realAccounts(t: TestBackend, prefix: string, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.com`);
  await passwordSignIn(t, emails[0], "right-password", "signUp");
  await t.run(async (ctx) => {
    const first = await ctx.db
      .query("authAccounts")
      .withIndex("providerAndAccountId", (q) => q.eq("provider", "password").eq("providerAccountId", emails[0]))
      .unique();
    for (const email of emails.slice(1)) {
      const userId = await ctx.db.insert("users", { email });
      await ctx.db.insert("authAccounts", {
        userId,
        provider: "password",
        providerAccountId: email,
        secret: first!.secret,
      });
    }
  });
  return emails;
}

/**
 * Wrong passwords on `email`, one after another, until one is refused (at
 * most `max`): how many were answered (hashed), and the refusal's error. The
 * site-wide ceiling is sharded, so where it refuses is near, not exactly at,
 * its capacity.
 */
export async function guessUntilRefused(
  t: TestBackend,
  email: string,
  max: number,
): Promise<{ answered: number; refusal: Promise<unknown> | null }> {
  for (let answered = 0; answered < max; answered++) {
    const attempt = passwordSignIn(t, email, `guess-${answered}`);
    const refused = await attempt.then(
      () => false,
      (error: { data?: { code?: string } }) => error?.data?.code === "RATE_LIMITED",
    );
    if (refused) return { answered, refusal: attempt };
  }
  return { answered: max, refusal: null };
}
