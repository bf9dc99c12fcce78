/**
 * What a test needs to follow a service's processes and hold one of its requests open: the
 * processes a process started (its `--workers`, read from /proc), whether a process still runs,
 * and a request whose body has only begun to arrive.
 */
import fs from 'node:fs';
import http from 'node:http';

/** The state letter and parent of a process from /proc, or null when it is gone. */
function stat(pid: number): { state: string; ppid: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** True while the process runs; a zombie has ended (its parent has only not collected it yet). */
export function isRunning(pid: number): boolean {
  const found = stat(pid);
  return found !== null && found.state !== 'Z';
}

/** The running processes whose parent is `pid`. */
export function childProcesses(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const found = stat(Number(entry));
    if (found && found.ppid === pid && found.state !== 'Z') children.push(Number(entry));
  }
  return children;
}

/**
 * A POST to a path the service does not have (answered 404 in the envelope once read) whose body
 * has only begun to arrive: the request is in flight until `finish` sends the rest.
 */
export function requestInFlight(baseUrl: string): { finish(): Promise<{ status: number; body: string }> } {
  const body = JSON.stringify({ OrderRetrieveRQ: { Query: { OrderID: 'NONE', GdsBookingReference: ['ABC123'] } } });
  const request = http.request(`${baseUrl}/no-such-path`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response
        .setEncoding('utf8')
        .on('data', (chunk: string) => {
          text += chunk;
        })
        .on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
  });
  request.write(body.slice(0, 10));
  return {
    finish: () => {
      request.end(body.slice(10));
      return answered;
    },
  };
}
