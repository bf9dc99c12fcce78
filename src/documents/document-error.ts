import { pathText, type FieldPath } from './field-path.js';

/** A problem with one imported document, named by record and field so the operator can fix it. */
export class DocumentError extends Error {
  constructor(readonly record: string, readonly field: string, readonly problem: string) {
    super(`${record}: ${field ? `${field} ` : ''}${problem}`);
    this.name = 'DocumentError';
  }
}

/** Thrown by field readers; the caller adds which record it was. */
export class FieldError extends Error {
  readonly field: string;

  constructor(path: FieldPath, readonly problem: string) {
    const field = pathText(path);
    super(`${field} ${problem}`);
    this.field = field;
    this.name = 'FieldError';
  }
}
