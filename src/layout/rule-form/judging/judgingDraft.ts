/**
 * The judging card's working copy inside the rule editor: the settings as typed (text, so a
 * half-typed number is not rewritten under the cursor), whether they differ from the stored rule's,
 * the `judging` part of the editor's one Save, and the checks of the shared schema (the server
 * checks the same). Pure.
 */
import {
  DEFAULT_REVIVE_HOURS,
  judgingEqual,
  judgingPatchSchema,
  type JudgingPatch,
  type RuleJudging,
} from '../../../../shared/judging';

export type JudgingField = keyof JudgingPatch;

export type JudgingDraft = Record<JudgingField, string> & {
  lag_on: boolean;
  revive_on: boolean;
  /** A carried-over rule's settings kept as its own at the next Save, unchanged. */
  adopt: boolean;
};

export type JudgingErrors = Partial<Record<JudgingField, string>>;

export const judgingDraftOf = (j: RuleJudging): JudgingDraft => ({
  maturity_hours: String(j.maturity_hours),
  maturity_impressions: String(j.maturity_impressions),
  lag_hours: String(j.lag_hours ?? ''),
  revive_hours: String(j.revive_hours ?? DEFAULT_REVIVE_HOURS),
  cooldown_hours: String(j.cooldown_hours),
  attribution_window: j.attribution_window ?? '',
  lag_on: j.lag_hours !== null,
  revive_on: j.revive_hours !== null,
  adopt: false,
});

const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** What the draft asks the server to store (`PATCH {judging}`). */
export function judgingPatchOf(draft: JudgingDraft): JudgingPatch {
  return {
    maturity_hours: numberOf(draft.maturity_hours),
    maturity_impressions: numberOf(draft.maturity_impressions),
    lag_hours: draft.lag_on ? numberOf(draft.lag_hours) : null,
    revive_hours: draft.revive_on ? numberOf(draft.revive_hours) : null,
    cooldown_hours: numberOf(draft.cooldown_hours),
    // A removed window stays in the draft so the schema names why it cannot be saved.
    attribution_window: (draft.attribution_window || null) as JudgingPatch['attribution_window'],
  };
}

/** Field → first message, from the shared schema; an empty field is required, not "not a number". */
export function judgingDraftErrors(draft: JudgingDraft, required: string): JudgingErrors {
  const errors: JudgingErrors = {};
  const shown: JudgingField[] = ['maturity_hours', 'maturity_impressions', 'cooldown_hours'];
  if (draft.lag_on) shown.push('lag_hours');
  if (draft.revive_on) shown.push('revive_hours');
  for (const field of shown) if (draft[field].trim() === '') errors[field] = required;
  const parsed = judgingPatchSchema.safeParse(judgingPatchOf(draft));
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as JudgingField;
      errors[field] ??= issue.message;
    }
  return errors;
}

/** Whether Save has judging to send: a setting moved, or a carried-over rule's settings are adopted. */
export function judgingChanged(stored: RuleJudging, draft: JudgingDraft): boolean {
  if (draft.adopt && stored.carried_over) return true;
  const patch = judgingPatchOf(draft);
  return !judgingEqual({ ...stored, ...patch, carried_over: stored.carried_over }, stored);
}

/** The settings the draft stands for, where it is valid: what Try on history replays. */
export function judgingOnScreen(stored: RuleJudging, draft: JudgingDraft): RuleJudging {
  const parsed = judgingPatchSchema.safeParse(judgingPatchOf(draft));
  return parsed.success ? { ...stored, ...parsed.data } : stored;
}

/** `{"judging.attribution_window": ["…"]}`, a 400 on Save → field → message. */
export function judgingServerErrorsOf(body: unknown): JudgingErrors {
  const errors: JudgingErrors = {};
  if (typeof body !== 'object' || body === null) return errors;
  for (const [key, value] of Object.entries(body))
    if (key.startsWith('judging.')) errors[key.slice('judging.'.length) as JudgingField] = [value].flat().join(' ');
  return errors;
}
