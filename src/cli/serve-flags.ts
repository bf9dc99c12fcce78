/** What `airorder serve` was given on its command line (commander's parse of its options). */
export interface ServeFlags {
  port?: string;
  host?: string;
  workers?: number;
  /** `--demo` alone is `true`; `--demo N` is N. */
  demo?: number | true;
}

/** Orders `--demo` loads when it is given without a count. */
export const DEMO_ORDERS = 50;

export interface ServeRequest {
  /** Settings the flags give, over the environment's (a flag wins over PORT and HOST). */
  settings: { PORT?: string; HOST?: string };
  workers: number;
  /** Demo orders to load before serving, or null for none. */
  demoOrders: number | null;
}

/** What `serve` is to do, from its flags: apart from main.ts so that it is read without a process. */
export function serveRequest(flags: ServeFlags): ServeRequest {
  const settings: ServeRequest['settings'] = {};
  // An empty value (`--port ''`) is no flag: the environment's setting, or the default, stands.
  if (flags.port) settings.PORT = flags.port;
  if (flags.host) settings.HOST = flags.host;
  return {
    settings,
    workers: flags.workers ?? 1,
    demoOrders: flags.demo === undefined ? null : flags.demo === true ? DEMO_ORDERS : flags.demo,
  };
}
