/** The areas of stryker.config.mjs, for scripts/mutate.ts. */
export declare const AREAS: Record<
  string,
  {
    mutate: string[];
    testFiles: string[];
    perStore?: Record<'sqlite' | 'postgres', { exclude: string[] }>;
    /** About how many mutants each of the area's chunks holds (scripts/mutation-chunks.ts). */
    chunkMutants?: number;
    /** Files that are each a chunk of their own, after the others (mutants only CLI processes reach). */
    alone?: string[];
  }
>;
/** The stores an area runs on. */
export declare function storesOf(area: string): ('sqlite' | 'postgres')[];
declare const config: Record<string, unknown>;
export default config;
