/**
 * A value an object holds under `key` itself, never one it inherits: `constructor`, `toString` or
 * `__proto__` read from a plain object are Object.prototype's, so a name from outside must not be
 * looked up with `object[name]` (docs/security.md, "Lookups by name").
 */
export function ownProperty(record: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(record, key)?.value;
}
