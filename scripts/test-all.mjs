#!/usr/bin/env node
/**
 * `npm test`: every check; typecheck and lint side by side, then the
 *   function/unit, local-backend and Playwright tests one at a time: the
 *   burst tests run functions under Convex's 1 s limit, which two suites
 *   sharing 2 cores (or a busy CI machine) can push past.
 * Each step's output is printed whole when it ends (not interleaved), a
 * failing step's last. A phase with a failure ends the run, as `&&` did (the
 * summary names the steps not run). The last line is the summary.
 * `npm run test:serial` runs the same steps one after another.
 */
import { spawn } from "node:child_process";

const PHASES = [["typecheck", "lint"], ["test:unit"], ["test:backend"], ["test:e2e"]];

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/** Runs `npm run <script>`, its output kept; resolves with its exit code, output and duration. */
function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) =>
      resolve({ script, code: code ?? 1, signal, output: Buffer.concat(output), ms: Date.now() - started }),
    );
  });
}

const started = Date.now();
const results = [];
for (const phase of PHASES) {
  process.stdout.write(`\n==> ${phase.join(" + ")}${phase.length > 1 ? " (in parallel)" : ""}\n`);
  const done = await Promise.all(phase.map(run));
  // Passing steps first, so a failure's output is the last thing above the summary.
  for (const result of [...done].sort((a, b) => Number(a.code !== 0) - Number(b.code !== 0))) {
    process.stdout.write(`\n--- ${result.script} (${seconds(result.ms)}) ---\n`);
    process.stdout.write(result.output);
    const status = result.code === 0 ? "passed" : `FAILED (exit ${result.signal ?? result.code})`;
    process.stdout.write(`--- ${result.script}: ${status} ---\n`);
  }
  results.push(...done);
  if (done.some((r) => r.code !== 0)) break;
}

const failed = results.filter((r) => r.code !== 0);
const notRun = PHASES.flat().filter((script) => !results.some((r) => r.script === script));
const table = [
  ...results.map((r) => `${r.script} ${r.code === 0 ? "ok" : "FAILED"} ${seconds(r.ms)}`),
  ...notRun.map((script) => `${script} not run`),
].join(", ");
process.stdout.write(
  `\n${failed.length === 0 ? "TESTS PASSED" : `TESTS FAILED: ${failed.map((r) => r.script).join(", ")}`}` +
    ` in ${seconds(Date.now() - started)} (${table})\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
