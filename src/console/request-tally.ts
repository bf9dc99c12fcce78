import type { FastifyInstance } from 'fastify';

const MINUTE = 60_000;

/**
 * Requests to the API and their outcome codes over the last hour, counted per minute by this
 * process (with --workers, each process counts its own; /metrics has the totals across time).
 */
export class RequestTally {
  private readonly minutes = new Map<number, Map<string, number>>();

  count(code: string, at = Date.now()): void {
    const minute = Math.floor(at / MINUTE);
    let codes = this.minutes.get(minute);
    if (!codes) {
      codes = new Map();
      this.minutes.set(minute, codes);
      for (const old of this.minutes.keys()) if (old <= minute - 60) this.minutes.delete(old);
    }
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }

  /** Counts per code within the last hour, most frequent first. */
  lastHour(at = Date.now()): { code: string; count: number }[] {
    const since = Math.floor(at / MINUTE) - 59;
    const totals = new Map<string, number>();
    for (const [minute, codes] of this.minutes) {
      if (minute < since) continue;
      for (const [code, count] of codes) totals.set(code, (totals.get(code) ?? 0) + count);
    }
    return [...totals].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  }
}

/** Counts every request outside the console, with the outcome code the request log writes. */
export function installRequestTally(app: FastifyInstance, tally: RequestTally): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/console')) return;
    tally.count(request.outcomeCode ?? (reply.statusCode < 400 ? 'OK' : String(reply.statusCode)));
  });
}
