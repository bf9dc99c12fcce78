/** The areas of stryker.config.mjs, for scripts/mutate.ts. */
export declare const AREAS: Record<
  string,
  { mutate: string[]; testFiles: string[]; perStore?: Record<'sqlite' | 'postgres', string[]> }
>;
declare const config: Record<string, unknown>;
export default config;
