/**
 * A template's rule, edited with the rule editor's own parts: active and notify only, filters, task
 * cards, conditions and action, judging, schedule and time zone, alert hours. Controlled: the
 * template screen holds the draft and saves it through the preview.
 */
import { FormControlLabel, Stack, Switch } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DEFAULT_BUDGET_LIMITS } from '../../../shared/budgetLimits';
import type { FilterItem, TaskName, TaskValueKey } from '../../../shared/rules';
import { setTaskValue } from '../../../shared/ruleEditor';
import { defaultAlertDay, defaultWeek } from '../../../shared/schedule';
import type { TimezoneOption } from '../../providers/ruleMethods';
import { ActionSection } from '../../layout/rule-form/conditions/ActionSection';
import { ConditionsCard } from '../../layout/rule-form/conditions/ConditionsCard';
import { JudgingSettings } from '../../layout/rule-form/judging/JudgingSettings';
import { FilterFields, TaskCards } from '../../layout/rule-form/RuleItemsFields';
import { Section } from '../../layout/rule-form/Section';
import { AlertScheduleSection, ScheduleSection } from '../../layout/rule-form/ScheduleSections';
import type { TemplateDraft, TemplateErrors } from './templateDraft';

export function TemplateRuleForm({
  draft,
  errors,
  timezones,
  disabled,
  onChange,
}: {
  draft: TemplateDraft;
  /** The errors to show (none before the first Save). */
  errors: TemplateErrors;
  timezones: TimezoneOption[];
  disabled: boolean;
  onChange: (next: TemplateDraft) => void;
}) {
  const translate = useTranslate();
  const { values } = draft;
  const setValues = (next: Partial<TemplateDraft['values']>) => onChange({ ...draft, values: { ...values, ...next } });
  return (
    <Stack spacing={2} component="fieldset" disabled={disabled} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
        <FormControlLabel
          control={
            <Switch
              checked={values.is_active}
              disabled={disabled}
              onChange={(e) => setValues({ is_active: e.target.checked })}
            />
          }
          label={translate('resources.templates.active')}
        />
        <FormControlLabel
          control={
            <Switch
              checked={values.notify_only}
              disabled={disabled}
              onChange={(e) => setValues({ notify_only: e.target.checked })}
            />
          }
          label={translate('resources.templates.notify_only')}
        />
      </Stack>
      <Section title={translate('rules.editor.filters')}>
        <FilterFields
          filters={values.rule_filter}
          errors={errors.items.filters}
          onChange={(name, next: FilterItem) =>
            setValues({ rule_filter: values.rule_filter.map((f) => (f.name === name ? next : f)) })
          }
        />
      </Section>
      <Section title={translate('rules.editor.tasks')}>
        <TaskCards
          tasks={values.rule_task}
          errors={errors.items.tasks}
          generalError={errors.items.tasksGeneral}
          onToggle={(name: TaskName, active: boolean) =>
            setValues({ rule_task: values.rule_task.map((t) => (t.name === name ? { ...t, is_active: active } : t)) })
          }
          onValue={(name: TaskName, key: TaskValueKey, value: string) =>
            setValues({ rule_task: setTaskValue(values.rule_task, name, key, value) })
          }
        />
      </Section>
      <Section title={translate('conditions.title')} help={translate('conditions.help')}>
        <ConditionsCard
          on={draft.expressive.on}
          group={draft.expressive.group}
          errors={errors.expressive}
          onToggle={(on) => onChange({ ...draft, expressive: { ...draft.expressive, on } })}
          onChange={(group) => onChange({ ...draft, expressive: { ...draft.expressive, group } })}
        />
      </Section>
      {draft.expressive.on ? (
        <Section title={translate('conditions.action.title')} help={translate('resources.templates.action_help')}>
          <ActionSection
            action={draft.expressive.action}
            limits={DEFAULT_BUDGET_LIMITS}
            errors={errors.expressive}
            onChange={(action) => onChange({ ...draft, expressive: { ...draft.expressive, action } })}
          />
        </Section>
      ) : null}
      <Section title={translate('judging.title')} help={translate('judging.help')}>
        <JudgingSettings
          adAccountId={null}
          carriedOver={false}
          draft={draft.judging}
          errors={errors.judging}
          disabled={disabled}
          onChange={(next) => onChange({ ...draft, judging: { ...draft.judging, ...next } })}
          onTouch={() => undefined}
        />
      </Section>
      <ScheduleSection
        schedule={values.rule_schedule.schedule}
        timezone={values.rule_schedule.timezone}
        timezones={timezones}
        disabled={disabled}
        onFillDefault={() =>
          setValues({
            rule_schedule: { ...values.rule_schedule, schedule: defaultWeek() },
            rule_alert_schedule: { schedule: defaultAlertDay() },
          })
        }
        onScheduleChange={(schedule) => setValues({ rule_schedule: { ...values.rule_schedule, schedule } })}
        onTimezoneChange={(timezone) => setValues({ rule_schedule: { ...values.rule_schedule, timezone } })}
      />
      <AlertScheduleSection
        schedule={values.rule_alert_schedule.schedule}
        disabled={disabled}
        onChange={(schedule) => setValues({ rule_alert_schedule: { schedule } })}
      />
    </Stack>
  );
}
