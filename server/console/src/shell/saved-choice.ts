// The account and environment last chosen in the header, kept in localStorage so that a reload or a new tab opens
// the same ones. Only ids: nothing secret is stored.

const CHOICE_KEY = 'feature-console-choice';

/** Which account and environment to choose (ids; either may be missing). */
export interface Choice {
  accountId?: string;
  envId?: string;
}

/** The saved choice, or an empty one when none was saved or storage is refused. */
export const savedChoice = (): Choice => {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { accountId, envId } = parsed as Record<string, unknown>;
    return {
      ...(typeof accountId === 'string' ? { accountId } : {}),
      ...(typeof envId === 'string' ? { envId } : {}),
    };
  } catch {
    return {};
  }
};

/** Saves the choice for the next visit. */
export const saveChoice = (accountId: string | undefined, envId: string | undefined): void => {
  try {
    localStorage.setItem(CHOICE_KEY, JSON.stringify({ accountId, envId }));
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
};
