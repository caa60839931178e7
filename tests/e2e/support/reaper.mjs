// Cleans up after a Playwright run that died without its global teardown (killed runner,
// SIGKILL, timeout): once the runner pid is gone, stop the backend named in the state file
// and remove the run's temp dir. Started detached by tests/e2e/global-setup.ts.
import fs from "node:fs";

const [runnerPid, stateFile, tmpDir] = [Number(process.argv[2]), process.argv[3], process.argv[4]];

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid) {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // not there
    }
  }
}

const timer = setInterval(() => {
  if (alive(runnerPid)) return;
  clearInterval(timer);
  try {
    const { backendPid } = JSON.parse(fs.readFileSync(stateFile, "utf8"));
    if (backendPid) killGroup(backendPid);
  } catch {
    // the teardown already removed everything
  }
  if (tmpDir.includes("stagetime-e2e-") && process.env.E2E_KEEP_TMP !== "1") {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  process.exit(0);
}, 1000);
