import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { api, flag, percentile, rssMiB, root, startBackend, stopBackend } from "./common";

/**
 * `--signups [--loops 8 --seconds 15]`: the backend over the app's own convex/
 * folder; `--loops` clients sign up through Convex Auth's password flow
 * (`auth:signIn`, flow signUp: a Scrypt hash per sign-up) one after another,
 * while one client runs the landing page's public query (`community:stats`)
 * every 20 ms. Prints that query's latency (p50, p95, max) alone and during the
 * sign-ups, and the sign-ups per second.
 */
export async function signups(): Promise<void> {
  const LOOPS = Number(flag("loops", "8"));
  const SECONDS = Number(flag("seconds", "15"));
  const backend = await startBackend({
    functionsDir: path.join(root, "convex"),
    deploymentEnv: { SIGN_UP_LIMIT_PER_MINUTE: "100000" },
    processEnv: { LOCAL_BACKEND_TRACE: "1" },
  });
  try {
    const reader = new ConvexHttpClient(backend.url);
    const measure = async (until: () => boolean): Promise<number[]> => {
      const out: number[] = [];
      while (!until()) {
        const start = performance.now();
        await reader.query(api.community.stats, {});
        out.push(performance.now() - start);
        await new Promise((r) => setTimeout(r, 20));
      }
      return out.sort((a, b) => a - b);
    };
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    const report = (what: string, times: number[]) =>
      console.log(
        `community:stats ${what}, ${times.length} queries: p50 ${fmt(percentile(times, 50))}, ` +
          `p95 ${fmt(percentile(times, 95))}, max ${fmt(times[times.length - 1])}`,
      );
    // Warm up (first loads of the modules, first index builds).
    await measure(
      (
        (n) => () =>
          n-- <= 0
      )(20),
    );
    const aloneUntil = Date.now() + 3000;
    report("alone", await measure(() => Date.now() > aloneUntil));
    let stop = false;
    let signedUp = 0;
    let failed = 0;
    const loop = async (l: number) => {
      const client = new ConvexHttpClient(backend.url, { logger: false });
      for (let i = 0; !stop; i++) {
        try {
          await client.action(api.auth.signIn, {
            provider: "password",
            params: { email: `bench-${l}-${i}-${Date.now()}@example.com`, password: "punchline-42", flow: "signUp" },
          });
          signedUp++;
        } catch (error) {
          if (failed++ === 0) console.log(`a sign-up failed: ${String(error)}`);
        }
      }
    };
    const started = performance.now();
    const loops = Array.from({ length: LOOPS }, (_, l) => loop(l));
    // Let every loop have a sign-up in flight before measuring.
    await new Promise((r) => setTimeout(r, 500));
    const until = Date.now() + SECONDS * 1000;
    const during = await measure(() => Date.now() > until);
    stop = true;
    await Promise.all(loops);
    const elapsed = (performance.now() - started) / 1000;
    report(`during ${LOOPS} concurrent sign-up loops`, during);
    console.log(
      `sign-ups: ${signedUp} in ${elapsed.toFixed(1)} s (${(signedUp / elapsed).toFixed(1)}/s), ${failed} failed; ` +
        `backend RSS ${rssMiB(backend.child.pid!)} MiB`,
    );
  } finally {
    await stopBackend(backend);
  }
}
