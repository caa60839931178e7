/** Watching a backend from a test: subscription values as they arrive, and its environment variables. */
import type { ConvexClient } from "convex/browser";
import type { FunctionArgs, FunctionReference, FunctionReturnType } from "convex/server";
import type { Backend } from "./harness";
import { waitFor } from "./harnessProcesses";

/**
 * Records every result a `ConvexClient` subscription delivers, in order, and
 * lets a test wait for one that satisfies a predicate.
 */
export class Subscription<Query extends FunctionReference<"query">> {
  /** Every value delivered to the callback, in delivery order. */
  readonly values: FunctionReturnType<Query>[] = [];
  /** Every error delivered to the error callback. */
  readonly errors: Error[] = [];
  readonly unsubscribe: () => void;

  constructor(client: ConvexClient, query: Query, args: FunctionArgs<Query>) {
    this.unsubscribe = client.onUpdate(
      query,
      args,
      (value) => {
        this.values.push(value);
      },
      (error) => {
        this.errors.push(error);
      },
    );
  }

  /** The most recent value, or undefined before the first. */
  get latest(): FunctionReturnType<Query> | undefined {
    return this.values[this.values.length - 1];
  }

  /** Waits for a delivered value (the latest one) that satisfies `predicate`. */
  async waitFor(
    predicate: (value: FunctionReturnType<Query>) => boolean,
    message = "a matching subscription value",
    timeoutMs = 30_000,
  ): Promise<FunctionReturnType<Query>> {
    try {
      const box = await waitFor(
        () =>
          this.values.length > 0 && predicate(this.latest as FunctionReturnType<Query>) ? { v: this.latest } : null,
        { timeoutMs, message },
      );
      return box.v as FunctionReturnType<Query>;
    } catch (error) {
      const seen = JSON.stringify(this.latest)?.slice(0, 2000);
      const errors = this.errors.map((e) => e.message).join("; ");
      throw new Error(`${(error as Error).message}; latest value: ${seen}; errors: ${errors || "none"}`);
    }
  }
}

/**
 * Parses the output of `env list` (`NAME=value` lines, as `npx convex env list`
 * prints them). A PEM value printed over several lines is joined back.
 */
export function parseEnvList(output: string): Record<string, string> {
  const env: Record<string, string> = {};
  let pending: string | null = null;
  for (const line of output.split(/\r?\n/)) {
    if (pending !== null) {
      env[pending] += `\n${line}`;
      if (/-----END [A-Z ]+-----/.test(line)) pending = null;
      continue;
    }
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    const [, name, value] = match;
    env[name] = value;
    if (/-----BEGIN [A-Z ]+-----/.test(value) && !/-----END [A-Z ]+-----/.test(value)) pending = name;
  }
  return env;
}

/** The backend's environment variables, read through its `env list` command. */
export async function readEnv(backend: Backend): Promise<Record<string, string>> {
  const result = await backend.cli(["env", "list"]);
  if (result.code !== 0) throw new Error(`env list failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return parseEnvList(result.stdout);
}
