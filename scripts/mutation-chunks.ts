/**
 * The parts ("chunks") an area's mutation run is cut into, so that a run stopped midway (a session
 * that ends, Ctrl-C) loses at most the chunk under way: Stryker writes its incremental file only
 * when a run ends, so each chunk is a run of its own with its own file (docs/testing.md, "Mutation
 * testing"). Every chunk starts with a first ("dry") run of all the area's test files, which for
 * the areas tested through CLI processes takes longer than the mutants themselves: those areas take
 * bigger chunks (`chunkMutants` in stryker.config.mjs). A source file with at least that many
 * mutants is a chunk alone; the smaller files are packed together in name order up to it, so that
 * the chunks stay the same from one run to the next while the code changes little.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';

/** About how many mutants a chunk holds unless its area says otherwise: at a few seconds each on two cores, minutes, not hours. */
export const CHUNK_MUTANTS = 120;

export interface Chunk {
  /** Names the chunk's reports: `documents-sqlite/src-documents-field-readers.ts`. */
  id: string;
  files: string[];
  mutants: number;
}

function sourceFiles(dir = 'src'): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(file);
      return entry.name.endsWith('.ts') ? [file] : [];
    })
    .sort();
}

/** The files an area's patterns pick (Stryker's form: globs, then `!glob` to leave some out). */
export function filesOf(patterns: string[]): string[] {
  const take = patterns.filter((pattern) => !pattern.startsWith('!'));
  const leave = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));
  return sourceFiles().filter(
    (file) => take.some((glob) => path.matchesGlob(file, glob)) && !leave.some((glob) => path.matchesGlob(file, glob)),
  );
}

const quiet = new Proxy({}, { get: (_, name) => (String(name).startsWith('is') ? () => false : () => undefined) });

/** How many mutants Stryker plants in each file. */
async function mutantCounts(files: string[]): Promise<Map<string, number>> {
  const instrumenter = new Instrumenter(quiet as ConstructorParameters<typeof Instrumenter>[0]);
  const counts = new Map<string, number>();
  for (const name of files) {
    const { mutants } = await instrumenter.instrument(
      [{ name, content: fs.readFileSync(name, 'utf8'), mutate: true }],
      {
        plugins: null,
        excludedMutations: [],
        ignorers: [],
        noHeader: false,
      },
    );
    counts.set(name, mutants.length);
  }
  return counts;
}

/**
 * `alone`: files whose mutants only slow tests reach (CLI processes): each is a chunk of its own,
 * after the others, so that the chunks of quick mutants finish within a session.
 */
export async function chunksOf(
  run: string,
  patterns: string[],
  size = CHUNK_MUTANTS,
  alone: string[] = [],
): Promise<Chunk[]> {
  const files = filesOf(patterns);
  const counts = await mutantCounts(files);
  const chunks: Chunk[] = [];
  const last: Chunk[] = [];
  let packing: Chunk | null = null;
  for (const file of files) {
    const mutants = counts.get(file) ?? 0;
    if (mutants === 0) continue; // types only
    const slug = file.replaceAll('/', '-');
    if (alone.includes(file)) {
      last.push({ id: `${run}/${slug}`, files: [file], mutants });
      continue;
    }
    if (mutants >= size) {
      chunks.push({ id: `${run}/${slug}`, files: [file], mutants });
      continue;
    }
    if (!packing || packing.mutants + mutants > size) {
      packing = { id: `${run}/${slug}`, files: [], mutants: 0 };
      chunks.push(packing);
    }
    packing.files.push(file);
    packing.mutants += mutants;
  }
  return [...chunks, ...last];
}
