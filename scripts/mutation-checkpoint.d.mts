// The types of scripts/mutation-checkpoint.mjs, a plain JavaScript Stryker plugin, for the TypeScript that imports it.
export function partialFileOf(incrementalFile: string): string;
export function partialReport(
  results: readonly ({ fileName: string } & Record<string, unknown>)[],
  tests: readonly { id: string; name: string; fileName?: string }[],
  fingerprint: string | null,
  readSource: (fileName: string) => string,
): {
  schemaVersion: string;
  files: Record<string, { language: string; source: string; mutants: Record<string, unknown>[] }>;
  testFiles: Record<string, { tests: { id: string; name: string }[] }>;
  fingerprint: string | null;
};
export function resumeFromPartial(incrementalFile: string, fingerprint: string): string | null;
export const strykerPlugins: unknown[];
