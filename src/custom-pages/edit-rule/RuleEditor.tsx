/**
 * The rule editor: name, filters, task cards, schedule grid, alert schedule and time zone of one
 * loaded rule, with the behaviour of docs/screens.md#states-and-transitions (name regeneration, spend
 * copying, Fill default, change tracking) from shared/ruleEditor.ts; beside the task cards, the
 * Conditions card and its Action, and the judging settings (the rule form's parts shared with the
 * template editor: src/layout/rule-form/). Every one of them is part of one form (useRuleEditor.ts):
 * a change anywhere counts as unsaved (the Leave guard asks), and the one Save sends only what
 * changed, then goes to '/'. A field's own error shows once it was touched (fieldTouch.ts). Beneath:
 * the Notify only switch (saved on its own), the rule's Runs and its Exemptions.
 */
import { Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { RuleDto } from '../../../shared/rules';
import { ErrorList } from '../../layout/ErrorList';
import { LeaveGuard } from '../../layout/rule-form/LeaveGuard';
import { Section } from '../../layout/rule-form/Section';
import { AlertScheduleSection, ScheduleSection } from '../../layout/rule-form/ScheduleSections';
import type { TimezoneOption } from '../../providers/ruleMethods';
import { AlertRecipients } from './AlertRecipients';
import { ExemptionsList } from './ExemptionsList';
import { RuleEditorHeader } from './RuleEditorHeader';
import { ConditionsSections, RuleItemsSections, RuleJudgingSection } from './RuleEditorSections';
import { RunsPanel } from './RunsPanel';
import { useRuleEditor } from './useRuleEditor';

export function RuleEditor({ rule, timezones }: { rule: RuleDto; timezones: TimezoneOption[] }) {
  const translate = useTranslate();
  const editor = useRuleEditor(rule);
  const { items } = editor;
  return (
    <Stack spacing={2} sx={{ py: 1 }}>
      <LeaveGuard shouldBlock={editor.shouldBlockLeave} />
      <RuleEditorHeader rule={rule} editor={editor} />
      <ErrorList errors={editor.errorList} />
      <RuleItemsSections editor={editor} />
      <ConditionsSections editor={editor} />
      <RuleJudgingSection rule={rule} editor={editor} />
      <ScheduleSection
        schedule={items.values.schedule}
        timezone={items.values.timezone}
        timezones={timezones}
        onFillDefault={items.fillDefault}
        onScheduleChange={items.editSchedule}
        onTimezoneChange={items.editTimezone}
      />
      <AlertScheduleSection schedule={items.values.alertSchedule} onChange={items.editAlerts}>
        <AlertRecipients folder={rule.folder} />
      </AlertScheduleSection>
      <Section title={translate('rules.editor.runs.title')} help={translate('rules.editor.runs.help')}>
        <RunsPanel ruleId={rule.id} />
      </Section>
      <Section title={translate('rules.editor.exemptions.title')} help={translate('rules.editor.exemptions.help')}>
        <ExemptionsList ruleId={rule.id} />
      </Section>
    </Stack>
  );
}
