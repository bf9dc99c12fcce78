/**
 * Where a field sits in a document (`bookings[0].segments[1].departure`), spelt out only when an
 * error names it: building the text for every field read took a quarter of the time spent checking
 * a large import, and almost every field is valid.
 */
export type FieldPath = string | { readonly parent: FieldPath; readonly key: string | number };

export function child(path: FieldPath, key: string | number): FieldPath {
  return { parent: path, key };
}

export function pathText(path: FieldPath): string {
  if (typeof path === 'string') return path;
  const parent = pathText(path.parent);
  return typeof path.key === 'number' ? `${parent}[${path.key}]` : parent ? `${parent}.${path.key}` : path.key;
}

/** A path given as its keys, such as `['bookings', 0, 'passengers']`: how the domain names a place in an order. */
export function pathOf(keys: readonly (string | number)[]): FieldPath {
  let path: FieldPath = '';
  for (const key of keys) path = child(path, key);
  return path;
}
