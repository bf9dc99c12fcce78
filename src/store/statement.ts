/** One SQL statement as portable text with `?` placeholders, and its values (raw-sql.ts, `runStatements`). */
export interface Statement {
  text: string;
  parameters: unknown[];
}
