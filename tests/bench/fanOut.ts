/** Realtime fan-out on the local backend process (run.ts part 2): a check-in to its subscribers, a live list's reorder to its watchers. */
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import type { Backend } from "../local-backend/harness";
import { LIST_WATCHERS, median, ms, NYC } from "./options";

const api = anyApi as any;

export async function fanOut(backend: Backend, clients: ConvexClient[]): Promise<void> {
  const now = new Date();
  const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
  const run = await backend.cli([
    "run",
    "fixtures:insertSceneItem",
    JSON.stringify({
      title: "Fan-out Mic",
      venueName: "Fan-out Room",
      city: "New York",
      type: "open_mic",
      latitude: NYC.lat,
      longitude: NYC.lng,
      dayOfWeek: now.getUTCDay(),
      startTimeLocal: hhmm,
      recurrence: "weekly",
      timeZone: "UTC",
    }),
  ]);
  if (run.code !== 0) throw new Error(run.stderr);
  const micId = JSON.parse(run.stdout.trim()) as string;

  const SUBSCRIBERS = 200;
  const counts: number[] = new Array(SUBSCRIBERS).fill(-1);
  const arrivals: number[][] = Array.from({ length: SUBSCRIBERS }, () => []);
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const client = new ConvexClient(backend.url, { unsavedChangesWarning: false, logger: false });
    clients.push(client);
    client.onUpdate(api.scene.get, { id: micId }, (item: { checkInCount: number } | null) => {
      counts[i] = item?.checkInCount ?? -1;
      arrivals[i][counts[i]] = performance.now();
    });
  }
  const waitAll = async (value: number) => {
    const deadline = Date.now() + 60_000;
    while (!counts.every((c) => c === value)) {
      if (Date.now() > deadline) throw new Error(`subscribers did not all see ${value}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const subscribeStarted = performance.now();
  await waitAll(0);
  const subscribeMs = performance.now() - subscribeStarted;

  const samples: Array<{ response: number; first: number; last: number; lastFromSend: number }> = [];
  for (let k = 1; k <= 5; k++) {
    const httpClient = new ConvexHttpClient(backend.url, { logger: false });
    const signed = (await httpClient.action(api.auth.signIn, {
      provider: "password",
      params: { email: `fanout-${k}-${Date.now()}@example.com`, password: "punchline-42", flow: "signUp" },
    })) as { tokens: { token: string } };
    httpClient.setAuth(signed.tokens.token);
    const sent = performance.now();
    await httpClient.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude: NYC.lat, longitude: NYC.lng });
    const responded = performance.now();
    await waitAll(k);
    const times = arrivals.map((a) => a[k]);
    samples.push({
      response: responded - sent,
      first: Math.min(...times) - responded,
      last: Math.max(...times) - responded,
      lastFromSend: Math.max(...times) - sent,
    });
  }
  console.log(
    `\nRealtime fan-out: a check-in (HTTP mutation) to ${SUBSCRIBERS} ConvexClient subscribers of scene.get, 1,000 other mics, 5 check-ins`,
  );
  console.log(`  (${SUBSCRIBERS} clients connected and got their first result in ${ms(subscribeMs)})`);
  for (const [i, s] of samples.entries()) {
    console.log(
      `  #${i + 1}: mutation ${ms(s.response)}; after its response first subscriber +${ms(s.first)}, last +${ms(s.last)}; send to last ${ms(s.lastFromSend)}`,
    );
  }
  console.log(
    `  median send-to-last-subscriber: ${ms(median(samples.map((s) => s.lastFromSend)))} (subscribers run in this process, so their parsing counts too)`,
  );
  console.log(
    "  (the mic row takes a check-in in with the fold on the next whole second: up to 1 s of each is that wait)",
  );
}

/** The live list: a host's reorder to LIST_WATCHERS subscribers of the list, send to last watcher. */
export async function listFanOut(backend: Backend, clients: ConvexClient[]): Promise<void> {
  const email = `bench-host-${Date.now()}@example.com`;
  const host = new ConvexHttpClient(backend.url, { logger: false });
  const signed = (await host.action(api.auth.signIn, {
    provider: "password",
    params: { email, password: "punchline-42", flow: "signUp" },
  })) as { tokens: { token: string } };
  host.setAuth(signed.tokens.token);
  const admin = await backend.cli(["run", "admin:setAdmin", JSON.stringify({ email, isAdmin: true })]);
  if (admin.code !== 0) throw new Error(admin.stderr);
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const run = await backend.cli([
    "run",
    "fixtures:insertSceneItem",
    JSON.stringify({
      title: "Bench List Mic",
      venueName: "Bench List Room",
      city: "New York",
      type: "open_mic",
      dayOfWeek: now.getUTCDay(),
      startTimeLocal: "23:59",
      recurrence: "weekly",
      timeZone: "UTC",
    }),
  ]);
  if (run.code !== 0) throw new Error(run.stderr);
  const micId = JSON.parse(run.stdout.trim()) as string;
  const listId = (await host.mutation(api.nightLists.open, {
    micId,
    date: today,
    spots: 20,
    lightMinutes: 1,
    mode: "first_come",
    signupOpensAt: Date.now() - 60_000,
  })) as string;
  for (let i = 0; i < 20; i++) await host.mutation(api.nightLists.addWalkIn, { listId, name: `Walk-in ${i + 1}` });

  type Seen = { version: number; list: Array<{ _id: string }> };
  const versions: number[] = new Array(LIST_WATCHERS).fill(-1);
  const arrivals: Array<Map<number, number>> = Array.from({ length: LIST_WATCHERS }, () => new Map());
  let latest: Seen | null = null;
  for (let i = 0; i < LIST_WATCHERS; i++) {
    const client = new ConvexClient(backend.url, { unsavedChangesWarning: false, logger: false });
    clients.push(client);
    client.onUpdate(api.nightLists.current, { micId }, (value: { list: Seen | null }) => {
      if (value.list === null) return;
      versions[i] = value.list.version;
      arrivals[i].set(value.list.version, performance.now());
      if (i === 0) latest = value.list;
    });
  }
  const waitAll = async (version: number) => {
    const deadline = Date.now() + 60_000;
    while (!versions.every((v) => v >= version)) {
      if (Date.now() > deadline) throw new Error(`list watchers did not all see version ${version}`);
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  const subscribeStarted = performance.now();
  while (latest === null) await new Promise((r) => setTimeout(r, 5));
  await waitAll((latest as Seen).version);
  const subscribeMs = performance.now() - subscribeStarted;

  const MOVES = 20;
  const samples: number[] = [];
  for (let k = 0; k < MOVES; k++) {
    const seen = latest as unknown as Seen;
    const last = seen.list[seen.list.length - 1];
    const sent = performance.now();
    await host.mutation(api.nightLists.move, { listId, spotId: last._id, toIndex: 0, version: seen.version });
    await waitAll(seen.version + 1);
    samples.push(Math.max(...arrivals.map((a) => a.get(seen.version + 1) ?? Number.POSITIVE_INFINITY)) - sent);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
  console.log(
    `\nLive list fan-out: a host's reorder (HTTP mutation) to ${LIST_WATCHERS} ConvexClient subscribers of nightLists.current (20 spots), ${MOVES} moves`,
  );
  console.log(`  (${LIST_WATCHERS} clients connected and got their first result in ${ms(subscribeMs)})`);
  console.log(
    `  host send to last watcher: p50 ${ms(median(samples))}, p95 ${ms(p95)}, max ${ms(sorted[sorted.length - 1])}`,
  );
}
