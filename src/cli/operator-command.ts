import type { Command } from 'commander';
import { addOperator, changePassword, disable, normalEmail, operators } from '../console/operator-accounts.js';
import { AdminError } from '../service/agency-admin.js';
import { systemClock } from '../runtime/clock.js';
import { readStandardInput } from './standard-input.js';
import { withStore, type GlobalOptions } from './with-store.js';

/** Standard input whole, without the one line end a shell or `echo` adds. */
async function passwordFromStdin(): Promise<string> {
  return (await readStandardInput()).replace(/\r?\n$/, '');
}

function needStdin(options: { passwordStdin?: boolean }): void {
  // A password on the command line would be in the shell's history and in `ps`.
  if (!options.passwordStdin)
    throw new AdminError('--password-stdin is required: the password is read from standard input.');
}

/** `airorder operator …`: the people who may sign in to the console. */
export function operatorCommands(program: Command, global: () => GlobalOptions): void {
  const operator = program.command('operator').description('manage the operators who sign in to the console');
  operator
    .command('add')
    .description('create an operator; the password (at least 12 characters) is read from standard input')
    .requiredOption('--email <address>', 'the e-mail address the operator signs in with')
    .requiredOption('--name <name>', "the operator's name")
    .option('--password-stdin', 'read the password from standard input')
    .action(async (options: { email: string; name: string; passwordStdin?: boolean }) => {
      needStdin(options);
      const password = await passwordFromStdin();
      await withStore(global(), (store) =>
        addOperator(store, systemClock, { email: options.email, name: options.name, password }),
      );
      process.stdout.write(
        global().json
          ? `${JSON.stringify({ email: options.email.trim().toLowerCase(), added: true })}\n`
          : `operator ${options.email.trim().toLowerCase()} added\n`,
      );
    });
  operator
    .command('list')
    .description('list operators: email, name, and whether they are disabled')
    .action(async () => {
      const all = await withStore(global(), (store) => operators(store));
      if (global().json) {
        process.stdout.write(
          `${JSON.stringify(
            all.map(({ email, name, disabledAt, createdAt }) => ({ email, name, disabledAt, createdAt })),
            null,
            2,
          )}\n`,
        );
        return;
      }
      for (const { email, name, disabledAt } of all)
        process.stdout.write(`${email}\t${name}\t${disabledAt ? `disabled ${disabledAt}` : 'active'}\n`);
    });
  operator
    .command('actions')
    .description(
      'print what operators did in the console, newest first: sign-in and sign-out, agencies, tokens, redeliveries, imports, actions on orders',
    )
    .option('--email <address>', "only this operator's actions")
    .option('--limit <n>', 'at most this many (1 to 10000)', '100')
    .action(async (options: { email?: string; limit: string }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
        throw new AdminError('--limit must be a whole number from 1 to 10000.');
      const actions = await withStore(global(), (store) =>
        store.read.recentOperatorActions(limit, options.email === undefined ? null : normalEmail(options.email)),
      );
      process.stdout.write(`${JSON.stringify(actions, null, 2)}\n`);
    });
  operator
    .command('disable')
    .description('disable an operator: their sessions end and they can no longer sign in')
    .argument('<email>', "the operator's e-mail address")
    .action(async (email: string) => {
      await withStore(global(), (store) => disable(store, systemClock, email));
      process.stdout.write(`operator ${email.trim().toLowerCase()} disabled\n`);
    });
  operator
    .command('password')
    .description("set an operator's password, read from standard input; their sessions end")
    .argument('<email>', "the operator's e-mail address")
    .option('--password-stdin', 'read the password from standard input')
    .action(async (email: string, options: { passwordStdin?: boolean }) => {
      needStdin(options);
      const password = await passwordFromStdin();
      await withStore(global(), (store) => changePassword(store, systemClock, email, password));
      process.stdout.write(`password of ${email.trim().toLowerCase()} changed\n`);
    });
}
