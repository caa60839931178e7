import { Email } from "@convex-dev/auth/providers/Email";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { ActionCtx } from "./_generated/server";
import { internalAction } from "./_generated/server";

/** A reset code lives this long. */
export const RESET_CODE_MINUTES = 15;
/** Digits of a reset code (10^8 codes; a few tries an hour, see rateLimits.ts). */
const RESET_CODE_DIGITS = 8;

/** An 8-digit code from the platform's secure random source. */
function resetCode(): string {
  const digits = new Uint32Array(RESET_CODE_DIGITS);
  crypto.getRandomValues(digits);
  return Array.from(digits, (d) => String(d % 10)).join("");
}

/**
 * The Password provider's reset flow: Convex Auth stores the code (hashed, one per account,
 * deleted once used or replaced by a newer one) and checks it with the email it was sent to.
 */
export const passwordResetProvider = Email({
  id: "password-reset",
  maxAge: RESET_CODE_MINUTES * 60,
  generateVerificationToken: async () => resetCode(),
  // Convex Auth passes the signIn action's ctx as a second argument its types do not name.
  async sendVerificationRequest({ identifier, token, expires }, ctx?: unknown) {
    // Delivered by a scheduled action: what a function logs in dev reaches the caller's browser.
    await (ctx as unknown as ActionCtx).scheduler.runAfter(0, internal.passwordReset.deliver, {
      email: identifier,
      code: token,
      expiresAt: expires.getTime(),
    });
  },
});

/**
 * Sends a reset code: by email through Resend when AUTH_RESEND_KEY is set (from AUTH_EMAIL_FROM),
 * else as a line in the backend's log (the local backend's output; a Convex deployment's logs).
 */
export const deliver = internalAction({
  args: { email: v.string(), code: v.string(), expiresAt: v.number() },
  returns: v.null(),
  handler: async (_ctx, { email, code, expiresAt }) => {
    const key = process.env.AUTH_RESEND_KEY;
    const text =
      `Your StageTime password reset code is ${code}. ` +
      `It works once, for ${RESET_CODE_MINUTES} minutes. If you did not ask for it, ignore this email.`;
    if (!key) {
      console.log(`Password reset code for ${email}: ${code} (expires ${new Date(expiresAt).toISOString()})`);
      return null;
    }
    const response = await fetch("https://api.resend.com/emails", {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        from: process.env.AUTH_EMAIL_FROM ?? "StageTime <onboarding@resend.dev>",
        to: [email],
        subject: "Your StageTime password reset code",
        text,
      }),
    });
    if (!response.ok) throw new Error(`Resend refused the reset email: ${response.status}`);
    return null;
  },
});
