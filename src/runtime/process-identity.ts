import fs from 'node:fs';
import os from 'node:os';

/**
 * Which process on which host runs something, in a form another process can check: `host:pid`, and
 * on Linux `/start`, the process's start time (clock ticks since boot, /proc/PID/stat), so that a
 * process that got the same id later (a restarted container's process is often pid 1 again) is not
 * taken for the one that is gone. Hosts are told apart by their host name.
 */

/** When the process `pid` started, as /proc says; null where there is no /proc or no such process. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

const START = processStart(process.pid);

/** This process: `host:pid` or `host:pid/start`. */
export const THIS_PROCESS = `${os.hostname()}:${process.pid}${START === null ? '' : `/${START}`}`;

/** A process as `THIS_PROCESS` names one (or `host:pid` alone, as earlier versions did). */
interface ProcessName {
  host: string;
  pid: number;
  start: string | null;
}

function parse(name: string): ProcessName | null {
  const match = /^(.*):([1-9][0-9]*)(?:\/([0-9]+))?$/.exec(name);
  return match ? { host: match[1]!, pid: Number(match[2]), start: match[3] ?? null } : null;
}

/**
 * Whether the named process still runs: `gone` or `running` for a process of this host, as the
 * operating system says; `unknown` for another host's (or a name that cannot be read).
 */
export function processState(name: string): 'running' | 'gone' | 'unknown' {
  const named = parse(name);
  if (!named || named.host !== os.hostname()) return 'unknown';
  if (named.pid === process.pid) return named.start === START ? 'running' : 'gone';
  try {
    process.kill(named.pid, 0);
  } catch (error) {
    // EPERM: a process of another user has that id; ESRCH: none has.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
  }
  // The id is taken: by the same process only if it started when the name says.
  const start = processStart(named.pid);
  return named.start !== null && start !== null && start !== named.start ? 'gone' : 'running';
}
