/** How often the parent is looked at: one getppid() call, nothing else. */
const PARENT_CHECK_MS = 250;

/**
 * Calls `onGone` once when the process that started this one has ended. A supervisor may start the
 * service through a launcher (npm, npx, a shell) that exits on SIGTERM without passing the signal on;
 * the service is then handed to another parent, and this is how it learns to stop rather than run on
 * orphaned. `startedBy` is the parent's pid as read when the program began. A process started by
 * init (systemd, a container's init) or that is itself pid 1 has no launcher to lose, and is not watched.
 */
export function watchParent(startedBy: number, onGone: () => void): void {
  if (startedBy <= 1) return;
  const check = () => {
    if (process.ppid === startedBy) return;
    clearInterval(timer);
    onGone();
  };
  const timer = setInterval(check, PARENT_CHECK_MS);
  timer.unref();
  check();
}
