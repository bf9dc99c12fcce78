import type { Migration, MigrationProvider } from 'kysely';
import { initialSchema } from './001-initial-schema.js';
import { idempotencyAndAudit } from './002-idempotency-and-audit.js';
import { eventsWebhooksDeadlines } from './003-events-webhooks-deadlines.js';
import { orderVersionsAndAuthState } from './004-order-versions-auth-state.js';
import { operatorConsole } from './005-operator-console.js';
import { consoleProgressAndCounts } from './006-console-progress-and-counts.js';
import { oneIndexForPendingChanges } from './007-one-index-for-pending-changes.js';
import { roomForUpdatesInPlace } from './008-room-for-updates-in-place.js';
import { signInAttemptCounts } from './009-sign-in-attempt-counts.js';
import { tokenLastUse } from './010-token-last-use.js';
import { orderRecords } from './011-order-records.js';
import { auditLog } from './012-audit-log.js';
import { eventLog } from './013-event-log.js';
import { refundQuotes } from './014-refund-quotes.js';
import { keptResponseCounts } from './015-kept-response-counts.js';

/** Migrations are listed here rather than read from disk, so the compiled package carries them. */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial-schema': initialSchema,
  '002-idempotency-and-audit': idempotencyAndAudit,
  '003-events-webhooks-deadlines': eventsWebhooksDeadlines,
  '004-order-versions-auth-state': orderVersionsAndAuthState,
  '005-operator-console': operatorConsole,
  '006-console-progress-and-counts': consoleProgressAndCounts,
  '007-one-index-for-pending-changes': oneIndexForPendingChanges,
  '008-room-for-updates-in-place': roomForUpdatesInPlace,
  '009-sign-in-attempt-counts': signInAttemptCounts,
  '010-token-last-use': tokenLastUse,
  '011-order-records': orderRecords,
  '012-audit-log': auditLog,
  '013-event-log': eventLog,
  '014-refund-quotes': refundQuotes,
  '015-kept-response-counts': keptResponseCounts,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
