/** Upper-cases references and collapses duplicates, keeping the order of first appearance. */
export function normaliseReferences(references: readonly string[]): string[] {
  return [...new Set(references.map((reference) => reference.toUpperCase()))];
}
