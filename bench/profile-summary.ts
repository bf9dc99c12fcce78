/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and tells where the time went: self time by part of
 * the program (airorder's own code by folder, its packages, Node's internals, native code, GC, idle)
 * and the functions that cost the most. `npm run bench -- --limit --profile` writes one per store.
 *
 *   node --import tsx bench/profile-summary.ts FILE.cpuprofile [--top 25]
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  parts: { part: string; ms: number; share: number }[];
  functions: { name: string; where: string; ms: number; share: number }[];
}

/** The part of the program a frame belongs to: what a reader of the summary can act on. */
function partOf(url: string, name: string): string {
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collector';
  if (name === '(program)') return 'native (V8, libuv, addons)';
  if (url === '') return 'native (V8, libuv, addons)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return `package ${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const own = url.match(/\/(?:dist|src)\/(.+)$/);
  if (own) {
    const folders = own[1]!.split('/');
    return `airorder ${folders.length > 1 ? folders.slice(0, -1).join('/') : folders[0]}`;
  }
  return url;
}

export function summariseProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const parts = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = functionName || '(anonymous)';
    const part = partOf(url, name);
    total += us;
    if (part === 'idle') {
      idle += us;
      continue;
    }
    parts.set(part, (parts.get(part) ?? 0) + us);
    const where = url
      ? `${url
          .replace(/^file:\/\//, '')
          .split('/node_modules/')
          .pop()!
          .replace(/^.*\/(dist|src)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const key = `${name} ${where}`;
    const entry = functions.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    functions.set(key, entry);
  }
  const busy = total - idle;
  const share = (us: number) => Number((us / busy).toFixed(3));
  return {
    totalMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    parts: [...parts]
      .sort((a, b) => b[1] - a[1])
      .map(([part, us]) => ({ part, ms: Math.round(us / 1000), share: share(us) })),
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map(({ name, where, us }) => ({ name, where, ms: Math.round(us / 1000), share: share(us) })),
  };
}

export function formatSummary(summary: ProfileSummary): string {
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`.padStart(7);
  return [
    `busy ${summary.busyMs} ms of ${summary.totalMs} ms sampled`,
    '',
    'self time by part:',
    ...summary.parts.filter((part) => part.share >= 0.005).map((part) => `${percent(part.share)}  ${part.part}`),
    '',
    'functions with the most self time:',
    ...summary.functions.map((fn) => `${percent(fn.share)}  ${fn.name}  ${fn.where}`),
  ].join('\n');
}

export function summariseProfileFile(file: string, top = 25): ProfileSummary {
  return summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, top);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  const [file] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const topIndex = process.argv.indexOf('--top');
  if (!file) {
    process.stderr.write('usage: bench/profile-summary.ts FILE.cpuprofile [--top N]\n');
    process.exit(2);
  }
  process.stdout.write(
    `${formatSummary(summariseProfileFile(file, topIndex > 0 ? Number(process.argv[topIndex + 1]) : 25))}\n`,
  );
}
