/** The judging card's draft inside the one-Save editor: what counts as a change, what Save sends, what is wrong. */
import { describe, expect, it } from 'vitest';
import {
  judgingChanged,
  judgingDraftErrors,
  judgingDraftOf,
  judgingOnScreen,
  judgingPatchOf,
  judgingServerErrorsOf,
} from '../../../../../src/layout/rule-form/judging/judgingDraft';
import { CARRIED_OVER_JUDGING, NEW_RULE_JUDGING } from '../../../../../shared/judging';

const REQUIRED = 'Field is required';

describe('the judging draft', () => {
  it('is unchanged as loaded; switching revive on is a change, and Save sends 72 hours', () => {
    const draft = judgingDraftOf(NEW_RULE_JUDGING);
    expect(judgingChanged(NEW_RULE_JUDGING, draft)).toBe(false);
    const revived = { ...draft, revive_on: true };
    expect(judgingChanged(NEW_RULE_JUDGING, revived)).toBe(true);
    expect(judgingPatchOf(revived)).toEqual({
      maturity_hours: 24,
      maturity_impressions: 1000,
      lag_hours: null,
      revive_hours: 72,
      cooldown_hours: 24,
      attribution_window: null,
    });
  });

  it('says an empty field is required, not "Must be a number", and a typed word is not a number', () => {
    const draft = { ...judgingDraftOf(NEW_RULE_JUDGING), lag_on: true };
    expect(judgingDraftErrors(draft, REQUIRED)).toEqual({ lag_hours: REQUIRED });
    expect(judgingDraftErrors({ ...draft, lag_hours: 'x' }, REQUIRED)).toEqual({ lag_hours: 'Must be a number' });
    expect(judgingDraftErrors({ ...draft, lag_hours: '24' }, REQUIRED)).toEqual({});
  });

  it('counts a carried-over rule’s settings kept as its own as a change, and only then', () => {
    const draft = judgingDraftOf(CARRIED_OVER_JUDGING);
    expect(judgingChanged(CARRIED_OVER_JUDGING, draft)).toBe(false);
    expect(judgingChanged(CARRIED_OVER_JUDGING, { ...draft, adopt: true })).toBe(true);
    expect(judgingChanged(NEW_RULE_JUDGING, { ...judgingDraftOf(NEW_RULE_JUDGING), adopt: true })).toBe(false);
  });

  it('replays the settings on screen where they are valid, the stored ones otherwise', () => {
    const draft = { ...judgingDraftOf(NEW_RULE_JUDGING), maturity_hours: '12' };
    expect(judgingOnScreen(NEW_RULE_JUDGING, draft).maturity_hours).toBe(12);
    expect(judgingOnScreen(NEW_RULE_JUDGING, { ...draft, maturity_hours: '' })).toEqual(NEW_RULE_JUDGING);
  });

  it('reads the server’s refusals by field', () => {
    expect(judgingServerErrorsOf({ 'judging.attribution_window': ['No longer reported'], name: ['x'] })).toEqual({
      attribution_window: 'No longer reported',
    });
  });
});
