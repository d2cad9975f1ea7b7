// `feature-server audit export` (issue 36, docs/teams.md "Audit log"): an account's audit log as JSON lines,
// oldest first, on the store directly or through the running server that holds it, exactly as the export
// route answers it. Lines go to stdout, or to --output (then a summary is printed, as JSON with --json).
import { open } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { required } from './args.js';
import type { CommandContext } from './context.js';

// A full ISO 8601 date-time, or a date alone (midnight UTC), as the audit routes take them.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

const sinceOf = (value: string | undefined): number | null => {
  if (value === undefined) return null;
  const ms = ISO_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new InputError(
      `--since ${value} is not a time: pass an ISO 8601 time such as 2026-11-22T10:00:00Z (or a date, 2026-11-22).`,
    );
  return ms;
};

/** `audit export`. */
export const auditCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  if (args.words[1] !== 'export')
    throw new InputError('Unknown command: use `audit export --account A [--since TIME] [--output FILE]`.');
  const accountId = required(args, 'account', 'ACCOUNT_ID');
  const sinceMs = sinceOf(args.options.get('since'));
  const output = args.options.get('output');
  if (output === undefined) {
    await context.withOperations('read', (ops) =>
      ops.exportAudit(accountId, sinceMs, (text) => {
        context.io.stdout.write(text);
        return Promise.resolve();
      }),
    );
    return;
  }
  const file = await open(output, 'w');
  let exported: number;
  try {
    exported = await context.withOperations('read', (ops) =>
      ops.exportAudit(accountId, sinceMs, async (text) => {
        await file.write(text);
      }),
    );
  } finally {
    await file.close();
  }
  context.print(
    { exported, output },
    `${exported} audit ${exported === 1 ? 'entry' : 'entries'} of account ${accountId} written to ${output}.`,
  );
};
