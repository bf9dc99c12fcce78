import { scaled } from './time-scale.js';
/**
 * Sends one agency API request every `everyMs` while something else runs, without waiting for the
 * answers, and keeps each one's status and how long its answer took: a service that stalls shows as
 * late or missing answers.
 */
export interface PolledAnswer {
  /** The status, or null when no answer came (refused, reset, or none within the time-out). */
  status: number | null;
  /** Milliseconds from sending to the whole answer. */
  ms: number;
}

export interface Poller {
  /** Stops sending and resolves once every request sent has its answer (or its time-out). */
  stop(): Promise<PolledAnswer[]>;
}

export function pollApi(
  url: string,
  init: { headers: Record<string, string>; body: string },
  everyMs = 100,
  timeoutMs = 60_000,
): Poller {
  const answers: Promise<PolledAnswer>[] = [];
  const send = () => {
    const sent = performance.now();
    answers.push(
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body,
        signal: AbortSignal.timeout(scaled(timeoutMs)),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          return { status: response.status, ms: performance.now() - sent };
        },
        () => ({ status: null, ms: performance.now() - sent }),
      ),
    );
  };
  send();
  const timer = setInterval(send, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      return Promise.all(answers);
    },
  };
}

/** The largest and the 99th percentile of the answers' times, in whole milliseconds. */
export function latencyFigures(answers: PolledAnswer[]): { max: number; p99: number } {
  const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  return {
    max: Math.round(times.at(-1) ?? 0),
    p99: Math.round(times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? 0),
  };
}
