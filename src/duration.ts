const UNITS = new Map([
  ['s', 1_000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
]);

/** `30s`, `15m`, `12h`, `90d` → milliseconds; null when the text is not such a duration. */
export function parseDuration(text: string): number | null {
  const match = /^([1-9][0-9]{0,5})([smhd])$/.exec(text.trim());
  return match ? Number(match[1]) * UNITS.get(match[2]!)! : null;
}
