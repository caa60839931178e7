/**
 * `npm run bench -- --only-numbers`: on one local backend, the documents
 * `micNumbers:forMic` reads for a mic with 20 and with 200 closed nights
 * (one summary row, whatever the history), then the season page for two
 * comedians, one with 200 sets and one with 2,000, spread over the last two
 * years at 20 mics. Prints the documents `season:mine` reads (the engine's
 * transaction metrics, as in querySeries.ts) for this year and last year: it
 * reads month rows, goal weeks and mics, never the sets, so the two columns
 * stay within the same bound.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { importPKCS8, SignJWT } from "jose";
import { startBackend, type Backend } from "../local-backend/harness";
import { fmt, median, ms, row, RUNS } from "./options";
import { adminRunner, functionsCopy, PROBE_MODULE } from "./benchFunctions";

const api = anyApi as any;

const SHAPES = [200, 2000];
const MICS = 20;
/** What a year's page may read: 12 month rows, 54 goal weeks, the mics, the profile and a little more. */
const YEAR_BUDGET = 12 + 54 + MICS + 4;

/** Nights of list history the event page's numbers are measured at. */
const NIGHT_SHAPES = [20, 200];
/** What `micNumbers:forMic` reads for the signed-out visitor measured here: the summary row alone
 * (a signed-in comedian's own draws would add a spot per counted lottery; these nights are first come). */
const MIC_NUMBERS_BUDGET = 1;

/** The event page's numbers for a mic with 20 and with 200 closed nights: the documents read stay the same. */
async function micNumbersPart(run: ReturnType<typeof adminRunner>, backend: Backend): Promise<void> {
  const figures: Array<{ nights: number; docs: number; median: number }> = [];
  for (const nights of NIGHT_SHAPES) {
    const micId = await run<string>("fixtures:insertSceneItem", {
      title: `Numbers Nights ${nights}`,
      venueName: `Numbers Nights Room ${nights}`,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      listTimeLocal: "19:30",
      timeZone: "America/New_York",
    });
    const started = performance.now();
    // 25 nights a call (the fixture takes at most 30), 8 comedians for 5 spots each.
    for (let skipWeeks = 0; skipWeeks < nights; skipWeeks += 25) {
      await run("fixtures:insertMicNights", {
        micId,
        nights: Math.min(25, nights - skipWeeks),
        spots: 5,
        signUps: 8,
        firstSetLate: 15,
        skipWeeks,
      });
    }
    console.log(`${fmt(nights)} nights written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const client = new ConvexHttpClient(backend.url, { logger: false });
    const args = { micId };
    const m = (await client.query(api.benchProbe.measure, { name: "micNumbers:forMic", args })) as {
      documentsRead: number;
    };
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await client.query(api.micNumbers.forMic, args);
      times.push(performance.now() - t0);
    }
    figures.push({ nights, docs: m.documentsRead, median: median(times) });
  }
  const widths = [18, 12, 12, 16];
  console.log("\n" + row(["micNumbers:forMic", "docs read", "ms", "target"], widths));
  for (const f of figures) {
    const ok = f.docs <= MIC_NUMBERS_BUDGET;
    console.log(
      row(
        [`${fmt(f.nights)} nights`, f.docs, ms(f.median), `<= ${MIC_NUMBERS_BUDGET} ${ok ? "ok" : "MISSED"}`],
        widths,
      ),
    );
  }
  const flat = figures.every((f) => f.docs === figures[0].docs);
  console.log(
    `\n${flat ? "Flat" : "NOT flat"}: documents read by the event page's numbers for 20 and 200 nights ` +
      `(median of ${RUNS} HTTP round trips).\n`,
  );
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export async function numbersBench(): Promise<void> {
  console.log("\n== Numbers: a mic's numbers at 20 and 200 nights; the season page at 200 and 2,000 sets ==");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-bench-numbers-"));
  const backend = await startBackend({
    functionsDir: functionsCopy(work, { "benchProbe.ts": PROBE_MODULE }),
    startTimeoutMs: 5 * 60_000,
  });
  try {
    const run = adminRunner(backend);
    const cli = async (args: string[]) => {
      const r = await backend.cli(args);
      if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
      return r.stdout.trim();
    };
    const key = await importPKCS8(await cli(["env", "get", "JWT_PRIVATE_KEY"]), "RS256");
    const issuer = await cli(["env", "get", "CONVEX_SITE_URL"]);
    const mics: string[] = [];
    for (let i = 0; i < MICS; i++) {
      mics.push(
        await run<string>("fixtures:insertSceneItem", {
          title: `Numbers Bench ${i}`,
          venueName: `Numbers Bench Room ${i}`,
          city: `City ${i % 5}`,
          latitude: 40 + i / 10,
          longitude: -74 + i / 10,
          type: "open_mic",
          recurrence: "weekly",
          dayOfWeek: i % 7,
          startTimeLocal: "20:00",
          timeZone: "America/New_York",
        }),
      );
    }
    await micNumbersPart(run, backend);
    const now = Date.now();
    const today = isoDate(now);
    const year = Number(today.slice(0, 4));
    const clients: ConvexHttpClient[] = [];
    for (const sets of SHAPES) {
      const [person] = await run<Array<{ userId: string; sessionId: string }>>("fixtures:insertComedians", {
        prefix: `Numbers ${sets}`,
        count: 1,
      });
      const email = `numbers-${sets}-1@bench.test`;
      const started = performance.now();
      // Spread over the 730 days before today, 20 a call (each set's streak recount reads the day rows).
      for (let from = 0; from < sets; from += 20) {
        const batch = Array.from({ length: Math.min(20, sets - from) }, (_, k) => {
          const i = from + k;
          return {
            date: isoDate(now - (1 + Math.floor((i * 730) / sets)) * 86_400_000),
            minutes: 5 + (i % 6),
            micId: mics[i % MICS],
          };
        });
        await run("fixtures:insertSeasonSets", { email, sets: batch });
      }
      console.log(`${fmt(sets)} sets written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const token = await new SignJWT({ sub: `${person.userId}|${person.sessionId}` })
        .setProtectedHeader({ alg: "RS256" })
        .setIssuedAt()
        .setIssuer(issuer)
        .setAudience("convex")
        .setExpirationTime("1h")
        .sign(key);
      const client = new ConvexHttpClient(backend.url, { logger: false });
      client.setAuth(token);
      clients.push(client);
    }

    const periods: Array<[string, Record<string, unknown>]> = [
      ["this year", { from: `${year}-01`, to: `${year}-12`, today }],
      ["last year", { from: `${year - 1}-01`, to: `${year - 1}-12`, today }],
    ];
    const widths = [12, 14, 14, 10, 10, 16];
    console.log(
      "\n" + row(["season:mine", "200 sets docs", "2,000 sets docs", "200 ms", "2,000 ms", "target"], widths),
    );
    let flat = true;
    for (const [label, args] of periods) {
      const figures = [];
      for (const client of clients) {
        const m = (await client.query(api.benchProbe.measure, { name: "season:mine", args })) as {
          documentsRead: number;
        };
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const t0 = performance.now();
          await client.query(api.season.mine, args as never);
          times.push(performance.now() - t0);
        }
        figures.push({ docs: m.documentsRead, median: median(times) });
      }
      const ok = figures.every((f) => f.docs <= YEAR_BUDGET);
      if (!ok) flat = false;
      console.log(
        row(
          [
            label,
            figures[0].docs,
            figures[1].docs,
            ms(figures[0].median),
            ms(figures[1].median),
            `<= ${YEAR_BUDGET} ${ok ? "ok" : "MISSED"}`,
          ],
          widths,
        ),
      );
    }
    console.log(
      `\n${flat ? "Flat" : "NOT flat"}: documents read by the season page for 200 and 2,000 sets ` +
        `(median of ${RUNS} HTTP round trips; ${MICS} mics).`,
    );
  } finally {
    await backend.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
