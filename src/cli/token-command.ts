import { type Command, InvalidArgumentError } from 'commander';
import { parseDuration } from '../duration.js';
import { LAST_USE_PRECISION_MS } from '../http/token-uses.js';
import { AdminError, issueToken, listTokens, revokeToken, type TokenToRevoke } from '../service/agency-admin.js';
import type { Clock } from '../runtime/clock.js';
import type { TokenListing } from '../store/repositories/tokens-repository.js';
import { readStandardInput } from './standard-input.js';
import { withStore, type GlobalOptions } from './with-store.js';

const TOKEN_ID = /^tok_[0-9a-f]{16}$/;
const PRECISION_MINUTES = LAST_USE_PRECISION_MS / 60_000;

function duration(text: string): number {
  const ms = parseDuration(text);
  if (ms === null) throw new InvalidArgumentError('must be a number and a unit, such as 30s, 15m, 12h or 90d.');
  return ms;
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function statusOf(token: TokenListing, now: string): string {
  if (token.revokedAt !== null) return 'revoked';
  return token.expiresAt !== null && token.expiresAt <= now ? 'expired' : 'active';
}

/** What `token revoke` was told to revoke: an id on the command line, or a token on standard input. */
async function tokenToRevoke(argument: string | undefined, fromStdin: boolean): Promise<TokenToRevoke> {
  if (fromStdin) {
    if (argument !== undefined)
      throw new AdminError(
        'Name the token once: a token id, or --token-stdin with the token on standard input, not both.',
      );
    const token = (await readStandardInput()).trim();
    if (token === '') throw new AdminError('--token-stdin: standard input holds no token.');
    return { token };
  }
  if (argument === undefined)
    throw new AdminError(
      'Name the token: airorder token revoke TOKEN_ID (tok_…, as token list prints it), or the token itself on standard input with --token-stdin.',
    );
  // The token itself is still taken as an argument, as before ids were; shell history and `ps` show it, so --token-stdin is the way for secrets.
  return TOKEN_ID.test(argument) ? { tokenId: argument } : { token: argument };
}

/** `airorder token …`: an agency's access tokens, named by their ids; a secret is shown once, at issue. */
export function tokenCommands(program: Command, global: () => GlobalOptions, clock: Clock): void {
  const token = program.command('token').description('manage access tokens');
  token
    .command('issue')
    .description('issue a token for an agency; prints the token alone on stdout (it is shown only once)')
    .requiredOption('--agency-id <id>', 'the agency the token acts for')
    .option('--expires-in <duration>', 'lifetime such as 30s, 15m, 12h or 90d (default: no expiry)', duration)
    .action(async (options: { agencyId: string; expiresIn?: number }) => {
      const issued = await withStore(global(), (store) =>
        issueToken(store, clock, options.agencyId, options.expiresIn ?? null),
      );
      if (global().json) printJson(issued);
      else process.stdout.write(`${issued.token}\n`);
    });
  token
    .command('list')
    .description(
      `list an agency's tokens, oldest first: id, status, creation, expiry, last use (to within ${PRECISION_MINUTES} minutes) and revocation; never a secret`,
    )
    .requiredOption('--agency-id <id>', 'the agency whose tokens to list')
    .action(async (options: { agencyId: string }) => {
      const tokens = await withStore(global(), (store) => listTokens(store, options.agencyId));
      const now = clock();
      if (global().json) {
        printJson(
          tokens.map((listed) => ({
            tokenId: listed.tokenId,
            status: statusOf(listed, now),
            createdAt: listed.createdAt,
            expiresAt: listed.expiresAt,
            lastUsedAt: listed.lastUsedAt,
            revokedAt: listed.revokedAt,
          })),
        );
        return;
      }
      const lines = [
        ['TOKEN ID', 'STATUS', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'],
        ...tokens.map((listed) => [
          listed.tokenId,
          statusOf(listed, now),
          listed.createdAt,
          listed.expiresAt ?? 'never',
          listed.lastUsedAt ?? 'never',
          listed.revokedAt ?? '-',
        ]),
      ];
      process.stdout.write(lines.map((line) => `${line.join('\t')}\n`).join(''));
    });
  token
    .command('revoke')
    .description(
      'revoke a token at once, named by its id (tok_…), or by the token itself read from standard input with --token-stdin',
    )
    .argument('[tokenId]', "the token's id, as token issue --json and token list print it")
    .option('--token-stdin', 'read the token itself from standard input rather than naming its id')
    .action(async (argument: string | undefined, options: { tokenStdin?: boolean }) => {
      const which = await tokenToRevoke(argument, options.tokenStdin ?? false);
      const revoked = await withStore(global(), (store) => revokeToken(store, clock, which));
      if (global().json) printJson({ tokenId: revoked.tokenId, revoked: true, revokedAt: revoked.revokedAt });
      else process.stdout.write(`token ${revoked.tokenId} revoked\n`);
    });
}
