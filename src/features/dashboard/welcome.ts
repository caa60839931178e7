/** How long after sign-up the dashboard still greets a comedian as new. */
const FIRST_DAY_MS = 24 * 60 * 60_000;

/**
 * The dashboard's greeting: "Welcome, Jane!" on the day the account was made,
 * "Welcome back, Jane!" after; without a name, "Welcome to StageTime".
 */
export function welcomeHeading(firstName: string | null, memberSince: number, nowMs: number): string {
  if (!firstName) return "Welcome to StageTime";
  const isNew = memberSince > 0 && nowMs - memberSince < FIRST_DAY_MS;
  return isNew ? `Welcome, ${firstName}!` : `Welcome back, ${firstName}!`;
}
