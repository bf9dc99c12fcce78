/** A background task run again `everyMs` after each run ends, never two runs at once. */
export interface PollingLoop {
  /** No more runs; resolves when the run under way (if any) has ended. */
  stop(): Promise<void>;
}

/** Starts `run` every `everyMs`; a failed run is reported to `failed` and the loop goes on. */
export function pollEvery(everyMs: number, run: () => Promise<unknown>, failed: (error: unknown) => void): PollingLoop {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const loop = () => {
    current = run()
      .catch(failed)
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, everyMs);
      });
  };
  timer = setTimeout(loop, everyMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
