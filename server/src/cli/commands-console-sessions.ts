// `feature-server console end-sessions`: signs every browser out of the console at once, on every server of the
// store (sessions are rows of the database, read at each call), and voids the sign-in links not used yet. For
// a session that may have leaked, or a console left open somewhere. It does not stop a leaked operator key:
// changing FEATURE_OPERATOR_KEY does, and ends that key's sessions as well.
import type { CommandContext } from './context.js';

/** `console end-sessions`: ends every console session; prints how many were open. */
export const endSessionsCommand = async (context: CommandContext): Promise<void> => {
  const ended = await context.withOperations('read', (ops) => ops.endConsoleSessions());
  context.print(
    { ended },
    `${ended === 1 ? '1 console session' : `${ended} console sessions`} ended: every browser signs in again ` +
      '(with the operator key, or a new link from `feature-server console`); unused sign-in links no longer work.',
  );
};
