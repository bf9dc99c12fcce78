import type { ChildProcess } from 'node:child_process';

/**
 * What a child process keeps of NODE_OPTIONS: nothing, except under mutation testing, where the
 * hook of test/mutation/child-coverage.cjs must reach every node process a test starts, so that
 * Stryker learns which mutants they ran (docs/testing.md, "Mutation testing"). Outside it this
 * is empty.
 */
export function mutationHookOptions(): { NODE_OPTIONS?: string } {
  const hook = process.env.AIRORDER_MUTATION_HOOK;
  return hook ? { NODE_OPTIONS: `--require ${JSON.stringify(hook)}` } : {};
}

/**
 * How a test's leftover children are ended: SIGKILL, except in mutation testing's dry run, where a
 * child killed outright would take the record of the mutants it ran with it (the hook writes it as
 * the process exits); there they get SIGTERM, and SIGKILL only if still running after `graceMs`.
 */
export function endLeftoverChild(child: ChildProcess, graceMs: number): void {
  if (process.env.STRYKER_DRY_RUN !== 'true') {
    child.kill('SIGKILL');
    return;
  }
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
}
