/*
 * Stops a Pulumi CLI's process group when the process that started it dies without stopping
 * it (kill -9, a cancelled CI job): `node watchdog.js <host pid> <group id>`. It polls, because
 * Linux tells a process of its parent's death only through prctl, which Node does not offer.
 * It exits when the group is gone or after stopping it.
 */
const [hostArg, groupArg] = process.argv.slice(2);
const host = Number(hostArg);
const group = Number(groupArg);
const POLL_MS = 250;
const GRACE_MS = 15_000;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

if (!Number.isInteger(host) || !Number.isInteger(group) || host <= 0 || group <= 0) {
  process.exit(2);
}

/** Sends a signal that may find nobody: the target can exit between the check and the kill. */
const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: already gone, which is what was wanted.
  }
};

const timer = setInterval(() => {
  if (!alive(-group)) process.exit(0);
  if (alive(host)) return;
  clearInterval(timer);
  // SIGINT to the CLI first (the group leader): it then releases the stack's lock and stops
  // its plugins; whatever is left after the grace period is killed. The leader may be gone
  // already while plugins of its group live on: they are still killed then.
  signal(group, "SIGINT");
  setTimeout(() => {
    if (alive(-group)) signal(-group, "SIGKILL");
    process.exit(0);
  }, GRACE_MS);
}, POLL_MS);
