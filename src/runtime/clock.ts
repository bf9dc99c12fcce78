/** The current time as an ISO-8601 UTC string. Injected so that tests can pin time. */
export type Clock = () => string;

export const systemClock: Clock = () => new Date().toISOString();
