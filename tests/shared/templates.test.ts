/**
 * Inheritance from a template: every kind of field inherits unless overridden, a template edit
 * moves exactly the inheriting fields, a person's edit overrides, a reset follows the template
 * again, and a rule leaving keeps its values.
 */
import { describe, expect, it } from 'vitest';
import { defaultFilters, defaultTasks, type RuleValues } from '../../shared/rules';
import { NEW_RULE_JUDGING } from '../../shared/judging';
import { defaultAlertDay, defaultWeek } from '../../shared/schedule';
import {
  TEMPLATE_FIELDS,
  differingFields,
  fieldValue,
  inheritedValues,
  looksLike,
  overridesAfterEdit,
  templateFieldLabel,
  withFieldFrom,
  type TemplateField,
} from '../../shared/templates';

function values(overrides: Partial<RuleValues> = {}): RuleValues {
  return {
    name: 'CPL guard',
    is_active: true,
    notify_only: false,
    rule_filter: defaultFilters(),
    rule_task: defaultTasks().map((t) =>
      t.name === 'trigger_cpl' ? { ...t, is_active: true, values: { cpl: '50' } } : t,
    ),
    rule_schedule: { schedule: defaultWeek(), timezone: 'America/New_York' },
    rule_alert_schedule: { schedule: defaultAlertDay() },
    judging: NEW_RULE_JUDGING,
    conditions: null,
    action: null,
    ...overrides,
  };
}

const setCpl = (v: RuleValues, cpl: string): RuleValues => ({
  ...v,
  rule_task: v.rule_task.map((t) => (t.name === 'trigger_cpl' ? { ...t, values: { cpl } } : t)),
});

/** One changed value for every kind of field. */
const changes: Record<string, (v: RuleValues) => RuleValues> = {
  name: (v) => ({ ...v, name: 'Other name' }),
  is_active: (v) => ({ ...v, is_active: !v.is_active }),
  notify_only: (v) => ({ ...v, notify_only: !v.notify_only }),
  'filter:campaign_name_contains': (v) => ({
    ...v,
    rule_filter: v.rule_filter.map((f) => (f.name === 'campaign_name_contains' ? { ...f, values: ['EP-W'] } : f)),
  }),
  'filter:campaign_name_not_contains': (v) => ({
    ...v,
    rule_filter: v.rule_filter.map((f) =>
      f.name === 'campaign_name_not_contains' ? { ...f, values: ['TEST'], is_active: true } : f,
    ),
  }),
  'task:trigger_cpl': (v) => setCpl(v, '75'),
  'task:spend_cpl_no_leads': (v) => ({
    ...v,
    rule_task: v.rule_task.map((t) =>
      t.name === 'spend_cpl_no_leads' ? { ...t, is_active: true, values: { spend: '40' } } : t,
    ),
  }),
  schedule: (v) => ({
    ...v,
    rule_schedule: { ...v.rule_schedule, schedule: v.rule_schedule.schedule.map((d) => d.map(() => false)) },
  }),
  timezone: (v) => ({ ...v, rule_schedule: { ...v.rule_schedule, timezone: 'Australia/Sydney' } }),
  alert_schedule: (v) => ({ ...v, rule_alert_schedule: { schedule: v.rule_alert_schedule.schedule.map(() => true) } }),
  judging: (v) => ({ ...v, judging: { ...v.judging, cooldown_hours: v.judging.cooldown_hours + 12 } }),
  conditions: (v) => ({
    ...v,
    conditions: {
      match: 'all',
      conditions: [{ metric: 'spend', window: 'today', op: '>=', value: 40 }],
    } as RuleValues['conditions'],
  }),
  action: (v) => ({ ...v, action: { kind: 'turn_off', level: 'ad' } as RuleValues['action'] }),
};

describe('rule templates: inheritance', () => {
  it.each(Object.entries(changes))('a template change to %s reaches an inheriting rule', (field, change) => {
    const template = values();
    const rule = values();
    const edited = change(template);
    expect(differingFields(template, edited)).toEqual([field]);
    const after = inheritedValues(edited, rule, []);
    expect(fieldValue(after, field as TemplateField)).toEqual(fieldValue(edited, field as TemplateField));
    expect(differingFields(after, edited)).toEqual([]);
  });

  it.each(Object.entries(changes))('a template change to %s leaves a rule overriding it', (field, change) => {
    const template = values();
    const rule = change(values()); // the folder's own value
    const edited = change(change(template)); // twice: back or on again, a value unlike the rule's for most
    const after = inheritedValues(setCpl(edited, '60'), rule, [field as TemplateField]);
    expect(fieldValue(after, field as TemplateField)).toEqual(fieldValue(rule, field as TemplateField));
  });

  it('an edit with and without overrides: the overriding folder keeps its threshold, the other takes the new one', () => {
    const template = values();
    const inheriting = values();
    const overriding = setCpl(values(), '80');
    const edited = { ...setCpl(template, '40'), rule_schedule: { ...template.rule_schedule, timezone: 'UTC' } };
    const a = inheritedValues(edited, inheriting, []);
    const b = inheritedValues(edited, overriding, ['task:trigger_cpl']);
    expect(fieldValue(a, 'task:trigger_cpl')).toEqual({ values: { cpl: '40' }, is_active: true });
    expect(fieldValue(b, 'task:trigger_cpl')).toEqual({ values: { cpl: '80' }, is_active: true });
    // Both follow the time zone, which neither overrides.
    expect(a.rule_schedule.timezone).toBe('UTC');
    expect(b.rule_schedule.timezone).toBe('UTC');
  });

  it('a person changing an inherited field overrides it; setting it back keeps the override until reset', () => {
    const template = values();
    const edited = setCpl(values(), '90');
    expect(overridesAfterEdit(template, edited, [])).toEqual(['task:trigger_cpl']);
    const back = setCpl(edited, '50');
    expect(overridesAfterEdit(template, back, ['task:trigger_cpl'])).toEqual(['task:trigger_cpl']);
    // Overrides come back in the editor's order whatever order they were made in.
    const more = { ...edited, rule_schedule: { ...edited.rule_schedule, timezone: 'UTC' }, name: 'Mine' };
    expect(overridesAfterEdit(template, more, ['timezone'])).toEqual(['name', 'task:trigger_cpl', 'timezone']);
  });

  it('a reset takes the template’s value of that field only', () => {
    const template = values();
    const rule = { ...setCpl(values(), '90'), name: 'Mine' };
    const reset = withFieldFrom(rule, template, 'task:trigger_cpl');
    expect(fieldValue(reset, 'task:trigger_cpl')).toEqual(fieldValue(template, 'task:trigger_cpl'));
    expect(reset.name).toBe('Mine');
  });

  it('a folder leaving the template keeps every value: a later template edit no longer reaches it', () => {
    const rule = inheritedValues(setCpl(values(), '40'), values(), []);
    // Leaving is the link gone; nothing calls inheritedValues for it again.
    const left = structuredClone(rule);
    expect(fieldValue(left, 'task:trigger_cpl')).toEqual({ values: { cpl: '40' }, is_active: true });
  });

  it('an item’s stored id is not a difference', () => {
    const a = values();
    const b = { ...values(), rule_task: values().rule_task.map((t, i) => ({ ...t, id: i + 100 })) };
    expect(differingFields(a, b)).toEqual([]);
  });

  it('looks like: the same task cards on and the same kind of action, whatever the thresholds', () => {
    expect(looksLike(values(), setCpl(values(), '999'))).toBe(true);
    expect(looksLike(values(), changes['task:spend_cpl_no_leads']!(values()))).toBe(false);
    expect(looksLike(values(), changes.action!(values()))).toBe(false);
  });

  it('names every field the way the editor does', () => {
    expect(TEMPLATE_FIELDS.map(templateFieldLabel)).toContain('Time zone');
    expect(templateFieldLabel('task:trigger_cpl')).not.toMatch(/task:|_/);
    expect(new Set(TEMPLATE_FIELDS).size).toBe(TEMPLATE_FIELDS.length);
  });
});
