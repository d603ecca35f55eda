/**
 * The rule editor's cards between its header and its schedule: Filters and Tasks, the Conditions
 * card and (while conditions are on) its Action, and the judging settings with the rule's conflicts.
 */
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { RuleDto } from '../../../shared/rules';
import { FilterFields, TaskCards } from '../../layout/rule-form/RuleItemsFields';
import { Section } from '../../layout/rule-form/Section';
import { ActionSection } from '../../layout/rule-form/conditions/ActionSection';
import { ConditionsCard } from '../../layout/rule-form/conditions/ConditionsCard';
import { folderLimitsOf } from '../../layout/rule-form/conditions/ruleWithConditions';
import { JudgingSettings } from '../../layout/rule-form/judging/JudgingSettings';
import { RuleConflicts } from '../../layout/rule-form/judging/RuleConflicts';
import { fieldKeys } from './fieldTouch';
import type { RuleEditorState } from './useRuleEditor';

export function RuleItemsSections({ editor }: { editor: RuleEditorState }) {
  const translate = useTranslate();
  const { items, touchFields } = editor;
  return (
    <>
      <Section title={translate('rules.editor.filters')}>
        <FilterFields filters={items.values.filters} errors={items.errors.filters} onChange={items.editFilter} />
      </Section>
      <Section title={translate('rules.editor.tasks')}>
        <TaskCards
          tasks={items.values.tasks}
          errors={items.errors.tasks}
          generalError={items.errors.tasksGeneral}
          onToggle={items.toggleTask}
          onValue={items.editTaskValue}
          onBlur={(name, key) => touchFields(fieldKeys.taskValue(name, key))}
        />
      </Section>
    </>
  );
}

export function ConditionsSections({ editor }: { editor: RuleEditorState }) {
  const translate = useTranslate();
  const { conditions, touchFields } = editor;
  const { expressive, errors, edit } = conditions;
  return (
    <>
      <Section title={translate('conditions.title')} help={translate('conditions.help')}>
        <ConditionsCard
          on={expressive.on}
          group={expressive.group}
          errors={errors}
          onToggle={(on) => edit({ ...expressive, on })}
          onChange={(group) => edit({ ...expressive, group })}
          onTouch={(key) => touchFields(fieldKeys.node(key))}
        />
      </Section>
      {expressive.on ? (
        <Section title={translate('conditions.action.title')} help={translate('conditions.action.help')}>
          <Box onBlur={() => touchFields(fieldKeys.action)}>
            <ActionSection
              action={expressive.action}
              limits={folderLimitsOf(editor.stored)}
              errors={errors}
              onChange={(action) => edit({ ...expressive, action })}
            />
          </Box>
        </Section>
      ) : null}
    </>
  );
}

export function RuleJudgingSection({ rule, editor }: { rule: RuleDto; editor: RuleEditorState }) {
  const translate = useTranslate();
  const { judging, touchFields } = editor;
  return (
    <Section title={translate('judging.title')} help={translate('judging.help')}>
      <RuleConflicts ruleId={rule.id} />
      <JudgingSettings
        adAccountId={rule.folder.meta_ad_account?.ad_account_id ?? null}
        carriedOver={editor.stored.judging.carried_over}
        draft={judging.judging}
        errors={judging.errors}
        disabled={!editor.canChange || editor.saving}
        onChange={judging.edit}
        onTouch={(field) => touchFields(fieldKeys.judging(field))}
      />
    </Section>
  );
}
