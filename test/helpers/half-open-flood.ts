/**
 * A client that opens COUNT connections to HOST:PORT, each sending a request line and one header and
 * then nothing, and holds them. Run as its own process (in a network namespace, so that its
 * connections come from an address of their own):
 *
 *   node --import tsx test/helpers/half-open-flood.ts HOST PORT COUNT
 *
 * It prints one JSON line on standard output once every connection is open or has failed to open:
 * `{"event":"opened","connected":…,"failed":…,"closed":…}` (`closed`: those the server has closed
 * since). A line `count` on standard input prints `{"event":"count","closed":…}` again; a line `release` closes them all; then it asks GET /healthz over a new
 * connection until it is answered (the server may take a moment to count the closed connections
 * out), prints `{"event":"released","closed":…,"status":…}` and exits.
 */
import http from 'node:http';
import net from 'node:net';
import readline from 'node:readline';
import { scaled } from './time-scale.js';

const HALF_REQUEST = 'GET /healthz HTTP/1.1\r\nHost: airorder\r\n';
/** Connections being opened at once: enough to be quick, few enough not to overflow the listen queue for long. */
const IN_FLIGHT = 256;

const [host = '', portText = '', countText = ''] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);

const sockets: net.Socket[] = [];
let connected = 0;
let failed = 0;
let closed = 0;
let releasing = false;

function openOne(): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    sockets.push(socket);
    let opened = false;
    socket.once('connect', () => {
      opened = true;
      connected += 1;
      socket.write(HALF_REQUEST);
      resolve();
    });
    // A reset by the server is one way of being closed; a failure to connect is counted apart.
    socket.on('error', () => {});
    socket.once('close', () => {
      if (!opened) {
        failed += 1;
        resolve();
      } else if (!releasing) closed += 1;
    });
  });
}

function healthz(): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host, port, path: '/healthz', agent: false, headers: { connection: 'close' } }, (r) => {
      r.resume();
      r.on('end', () => resolve(r.statusCode ?? 0));
    });
    request.setTimeout(scaled(10_000), () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

async function main(): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        next += 1;
        await openOne();
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ event: 'opened', connected, failed, closed })}\n`);
  const input = readline.createInterface({ input: process.stdin });
  for await (const line of input) {
    if (line.trim() === 'count') process.stdout.write(`${JSON.stringify({ event: 'count', closed })}\n`);
    if (line.trim() !== 'release') continue;
    releasing = true;
    const closedBefore = closed;
    for (const socket of sockets) socket.destroy();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      status = await healthz();
    }
    process.stdout.write(`${JSON.stringify({ event: 'released', closed: closedBefore, status })}\n`);
    process.exit(0);
  }
}

void main();
