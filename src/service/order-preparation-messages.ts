import type { PreparedOrder } from './order-preparation.js';

/** How many prepared batches the thread may have posted that the writer has not taken yet. */
export const BATCHES_AHEAD = 4;

/** What the thread is started with: the file to read, or `-` for standard input. */
export interface PreparerData {
  file: string;
  /** When the import began, by the service's clock. */
  importedAt: string;
}

/** The writer took a batch: the thread may prepare one more. */
export interface Ack {
  type: 'ack';
}

export type FromPreparer =
  | { type: 'batch'; orders: PreparedOrder[]; bytesRead: number }
  | { type: 'done' }
  | { type: 'document-error'; record: string; field: string; problem: string; orderId: string | null }
  | { type: 'failed'; message: string; code?: string; stack?: string };
