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
