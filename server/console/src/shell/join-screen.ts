// The shell's screen while a join link waits for an answer (shell/join-token.ts keeps its token): the
// invitation of <join-invitation-view> in the sign-in layout, before the console itself.
import { html } from 'lit';
import '../sign-in/join-invitation-view.js';

/** What the sign-in screen says while a join link waits for its person. */
export const JOIN_SIGN_IN = 'Sign in as the invited person to answer this invitation.';

/** The account joined (and what to say), or null: declined, or left unanswered. */
export type JoinOutcome = { accountId: string; message: string } | null;

/** The join screen of `token`; `answered` when the person joined, declined or left; `signOut` on request. */
export const joinScreen = (
  token: string,
  on: { answered: (outcome: JoinOutcome) => void; signOut: () => void },
) =>
  html`<div class="sign-in">
    <join-invitation-view
      .token=${token}
      @join-answered=${({ detail }: HTMLElementEventMap['join-answered']) =>
        on.answered(
          detail.answer === 'join'
            ? { accountId: detail.accountId, message: `You joined ${detail.accountName}.` }
            : null,
        )}
      @join-left=${() => on.answered(null)}
      @sign-out-requested=${() => on.signOut()}
    ></join-invitation-view>
  </div>`;
