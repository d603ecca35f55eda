import { describe, expect, it } from 'vitest';
import {
  buildRulePatch,
  changedItems,
  generatedRuleName,
  hasUnsavedChanges,
  nameAfterEdit,
  nameIsAutomatic,
  setTaskValue,
  untouched,
  type EditorValues,
} from '../../shared/ruleEditor';
import {
  defaultFilters,
  defaultTasks,
  isDefaultTask,
  nextNewRuleName,
  validateRuleItems,
  type FilterItem,
  type TaskItem,
} from '../../shared/rules';
import {
  defaultAlertDay,
  defaultWeek,
  emptyWeek,
  hourLabel,
  toggleCell,
  toggleDay,
  toggleHourAllDays,
} from '../../shared/schedule';

const withContains = (values: string[]): FilterItem[] =>
  defaultFilters().map((f) => (f.name === 'campaign_name_contains' ? { ...f, values } : f));

const values = (overrides: Partial<EditorValues> = {}): EditorValues => ({
  name: 'Rule',
  filters: defaultFilters(),
  tasks: defaultTasks(),
  schedule: defaultWeek(),
  alertSchedule: defaultAlertDay(),
  timezone: 'UTC',
  ...overrides,
});

describe('rule name regeneration', () => {
  it('joins the second contains item, the website CPL and the items from the third on', () => {
    expect(generatedRuleName(['EDM', 'EP-W', 'TIR-W', 'SS-S'], '45')).toBe('EP-W: Pause ad CPL > $45  - TIR-W - SS-S');
    expect(generatedRuleName(['EDM', 'EP-W'], '45')).toBe('EP-W: Pause ad CPL > $45');
    expect(generatedRuleName(['EDM'], '')).toBe('Pause ad CPL > $');
  });

  it('regenerates only when the contains list or website_cpl changes', () => {
    const before = { name: 'Hand-written', filters: defaultFilters(), tasks: defaultTasks() };
    const renamedTask = setTaskValue(defaultTasks(), 'trigger_cpl', 'cpl', '10');
    expect(nameAfterEdit(before, { filters: before.filters, tasks: renamedTask })).toBe('Hand-written');
    const cpl = setTaskValue(defaultTasks(), 'website_cpl', 'cpl', '30');
    expect(nameAfterEdit(before, { filters: before.filters, tasks: cpl })).toBe('Pause ad CPL > $30');
    expect(nameAfterEdit({ ...before, tasks: cpl }, { filters: withContains(['EDM', 'RP-S']), tasks: cpl })).toBe(
      'RP-S: Pause ad CPL > $30',
    );
  });
});

describe('automatic and typed names', () => {
  it('a placeholder, an empty or a generated name is automatic; any other name was typed', () => {
    const items = {
      filters: withContains(['EDM', 'EP-W']),
      tasks: setTaskValue(defaultTasks(), 'website_cpl', 'cpl', '45'),
    };
    for (const name of ['New rule', 'New rule 3', '', 'EP-W: Pause ad CPL > $45', 'EP-W: Pause ad CPL > $45 (copy)'])
      expect(nameIsAutomatic({ ...items, name })).toBe(true);
    for (const name of ['Night watch', 'EP-W: Pause ad CPL > $40', 'New rule for Anna'])
      expect(nameIsAutomatic({ ...items, name })).toBe(false);
  });

  it('a typed name stays; an invalid website CPL never reaches the name', () => {
    const before = { name: 'Pause ad CPL > $', filters: defaultFilters(), tasks: defaultTasks() };
    const typo = setTaskValue(defaultTasks(), 'website_cpl', 'cpl', '$abc');
    expect(nameAfterEdit(before, { filters: before.filters, tasks: typo })).toBe('Pause ad CPL > $');
    const cpl = setTaskValue(defaultTasks(), 'website_cpl', 'cpl', '30');
    expect(nameAfterEdit(before, { filters: before.filters, tasks: cpl }, false)).toBe('Pause ad CPL > $');
    expect(nameAfterEdit(before, { filters: before.filters, tasks: cpl }, true)).toBe('Pause ad CPL > $30');
  });

  it('new rules of a folder get names none of its rules has', () => {
    expect(nextNewRuleName([])).toBe('New rule');
    expect(nextNewRuleName(['New rule'])).toBe('New rule 2');
    expect(nextNewRuleName(['New rule', 'New rule 2', 'New rule 4'])).toBe('New rule 3');
  });
});

describe('schedules', () => {
  it('Fill default turns every day on at 2 AM, 7 AM, 12 PM and 5 PM, and alerts at 7 AM only', () => {
    const week = defaultWeek();
    expect(week).toHaveLength(7);
    for (const day of week)
      expect(day.flatMap((on, h) => (on ? [hourLabel(h)] : []))).toEqual(['2 AM', '7 AM', '12 PM', '5 PM']);
    expect(defaultAlertDay().flatMap((on, h) => (on ? [h] : []))).toEqual([7]);
  });

  it('a whole-week hour sets that hour on every day, and clears it when every day had it', () => {
    const partly = toggleCell(emptyWeek(), 3, 9);
    const set = toggleHourAllDays(partly, 9);
    expect(set.every((day) => day[9])).toBe(true);
    const cleared = toggleHourAllDays(set, 9);
    expect(cleared.some((day) => day[9])).toBe(false);
  });

  it('a whole-day toggle fills a day, and empties a full one; a cell toggles alone', () => {
    const filled = toggleDay(emptyWeek(), 2);
    expect(filled[2]!.every(Boolean)).toBe(true);
    expect(filled[1]!.some(Boolean)).toBe(false);
    expect(toggleDay(filled, 2)[2]!.some(Boolean)).toBe(false);
    const cell = toggleCell(emptyWeek(), 0, 23);
    expect(cell[0]![23]).toBe(true);
    expect(cell.flat().filter(Boolean)).toHaveLength(1);
    expect(hourLabel(0)).toBe('12 AM');
    expect(hourLabel(12)).toBe('12 PM');
  });
});

describe('spend copying', () => {
  it('copies a spend typed in any of the no-clicks, CTR and CPC cards to all three', () => {
    const tasks = setTaskValue(defaultTasks(), 'spend_ctr_no_leads', 'spend', '25');
    const spendOf = (name: string) => tasks.find((t) => t.name === name)!.values.spend;
    expect(spendOf('spend_no_links_clicks')).toBe('25');
    expect(spendOf('spend_ctr_no_leads')).toBe('25');
    expect(spendOf('spend_cpc_no_leads')).toBe('25');
    expect(spendOf('spend_cpl_no_leads')).toBe('');
  });

  it('leaves the other cards alone for the no-leads card and for non-spend values', () => {
    const tasks = setTaskValue(
      setTaskValue(defaultTasks(), 'spend_cpl_no_leads', 'spend', '7'),
      'spend_cpc_no_leads',
      'cpc',
      '2',
    );
    expect(tasks.find((t) => t.name === 'spend_no_links_clicks')!.values.spend).toBe('');
    expect(tasks.find((t) => t.name === 'spend_ctr_no_leads')!.values).toEqual({ spend: '', ctr: '' });
    expect(tasks.find((t) => t.name === 'spend_cpc_no_leads')!.values).toEqual({ spend: '', cpc: '2' });
  });
});

describe('change detection and the save payload', () => {
  it('sees no change in freshly loaded values', () => {
    expect(hasUnsavedChanges(values(), values(), untouched())).toBe(false);
    expect(buildRulePatch(values(), values(), untouched())).toEqual({});
  });

  it('compares filters and tasks with the loaded data, so undoing an edit is no change', () => {
    const loaded = values();
    const edited = values({ tasks: setTaskValue(loaded.tasks, 'trigger_cpl', 'cpl', '9') });
    expect(hasUnsavedChanges(loaded, edited, untouched())).toBe(true);
    const undone = values({ tasks: setTaskValue(edited.tasks, 'trigger_cpl', 'cpl', '') });
    expect(hasUnsavedChanges(loaded, undone, untouched())).toBe(false);
  });

  it('counts any schedule or time-zone edit and a rename as a change', () => {
    expect(hasUnsavedChanges(values(), values(), { ...untouched(), schedule: true })).toBe(true);
    expect(hasUnsavedChanges(values(), values(), { ...untouched(), timezone: true })).toBe(true);
    expect(hasUnsavedChanges(values(), values(), { ...untouched(), alertSchedule: true })).toBe(true);
    expect(hasUnsavedChanges(values(), values({ name: 'Other' }), untouched())).toBe(true);
  });

  it('sends only the changed items, the edited schedules and the new name', () => {
    const loaded = values();
    const tasks = setTaskValue(loaded.tasks, 'spend_no_links_clicks', 'spend', '30');
    const current = values({ name: ' New name ', tasks, schedule: toggleCell(loaded.schedule, 0, 0) });
    const patch = buildRulePatch(loaded, current, { ...untouched(), schedule: true });
    expect(patch.name).toBe('New name');
    expect(patch.rule_filter).toBeUndefined();
    expect(patch.rule_task!.map((t) => t.name)).toEqual([
      'spend_no_links_clicks',
      'spend_ctr_no_leads',
      'spend_cpc_no_leads',
    ]);
    expect(patch.rule_schedule).toEqual({ schedule: current.schedule, timezone: 'UTC' });
    expect(patch.rule_alert_schedule).toBeUndefined();
    expect(changedItems(loaded.filters, withContains(['EDM', 'WW-W'])).map((f) => f.name)).toEqual([
      'campaign_name_contains',
    ]);
  });
});

describe('rule validation', () => {
  const task = (name: TaskItem['name'], v: TaskItem['values'], is_active = false): TaskItem => ({
    name,
    type: 'rule_task',
    values: v,
    is_active,
  });

  it('accepts the defaults of a new rule while it is off, and asks for an active task to switch it on', () => {
    expect(validateRuleItems(defaultFilters(), defaultTasks(), { active: false })).toBeNull();
    expect(validateRuleItems(defaultFilters(), defaultTasks(), { active: true })).toEqual({
      rule_task: { non_field_errors: ['Turn on at least one task to activate the rule'] },
    });
  });

  it('requires the values of a switched-on task, numbers in any task, and whole leads', () => {
    expect(isDefaultTask(task('trigger_cpl', { cpl: '' }))).toBe(true);
    expect(isDefaultTask(task('trigger_cpl', { cpl: '' }, true))).toBe(false);
    const errors = validateRuleItems(
      defaultFilters(),
      [
        task('trigger_cpl', { cpl: '' }, true),
        task('website_cpl', { cpl: '1e' }),
        task('campaign_leads', { leads: '3.5' }),
        task('spend_ctr_no_leads', { spend: '10', ctr: '0.75' }, true),
        task('spend_cpc_no_leads', { spend: '10', cpc: '' }),
      ],
      { active: false },
    );
    expect(errors).toEqual({
      rule_task: {
        trigger_cpl: { cpl: ['Field is required'] },
        website_cpl: { cpl: ['Field must be a number'] },
        campaign_leads: { leads: ['Field must be an integer'] },
      },
    });
  });

  it('lets a copied spend sit in switched-off cards without their other values', () => {
    const tasks = setTaskValue(defaultTasks(), 'spend_no_links_clicks', 'spend', '30').map((t) =>
      t.name === 'spend_no_links_clicks' ? { ...t, is_active: true } : t,
    );
    expect(validateRuleItems(defaultFilters(), tasks, { active: true })).toBeNull();
  });

  it('requires the contains list always and the not-contains list when it is on', () => {
    const filters = withContains([]).map((f) =>
      f.name === 'campaign_name_not_contains' ? { ...f, is_active: true } : f,
    );
    expect(validateRuleItems(filters, defaultTasks(), { active: false })).toEqual({
      rule_filter: { campaign_name_contains: ['Field is required'], campaign_name_not_contains: ['Field is required'] },
    });
  });
});
