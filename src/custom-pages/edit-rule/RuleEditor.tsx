/**
 * The rule editor: name, filters, task cards, schedule grid, alert schedule and time zone of one
 * loaded rule, with the behaviour of docs/screens.md#states-and-transitions (name regeneration, spend
 * copying, Fill default, change tracking) from shared/ruleEditor.ts; beside the task cards, the
 * Conditions card and its Action, and the judging settings (the rule form's parts shared with the
 * template editor: src/layout/rule-form/). Every one of them is part of one form: a change anywhere
 * counts as unsaved (the Leave guard asks), and the one Save sends only what changed, then goes to
 * '/'. A field's own error shows once it was touched (fieldTouch.ts). Beneath: the Notify only switch
 * (saved on its own), the rule's Runs and its Exemptions.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import HistoryIcon from '@mui/icons-material/History';
import InsightsIcon from '@mui/icons-material/Insights';
import { Autocomplete, Box, Button, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useMemo, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import {
  buildRulePatch,
  editorValuesOf,
  hasUnsavedChanges,
  nameAfterEdit,
  nameIsAutomatic,
  setTaskValue,
  untouched,
  type EditorTouched,
  type RulePatch,
  type EditorValues,
} from '../../../shared/ruleEditor';
import { validateRuleItems, type FilterItem, type RuleDto, type TaskName } from '../../../shared/rules';
import {
  defaultAlertDay,
  defaultWeek,
  toggleAlertHour,
  toggleCell,
  toggleDay,
  toggleHourAllDays,
} from '../../../shared/schedule';
import { MESSAGES } from '../../../shared/validation';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { RowAction, RowActions, useNarrowScreen } from '../../layout/RowActions';
import { TrashLink } from '../../layout/TrashLink';
import { usePermission } from '../../providers/usePermissions';
import { RuleRunActions } from '../../layout/runs/RuleRunActions';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import type { TimezoneOption } from '../../providers/ruleMethods';
import { TryOnHistory } from '../backtest/TryOnHistory';
import { ExemptionsList } from './ExemptionsList';
import { ActiveSwitch } from './ActiveSwitch';
import { JudgingSettings } from '../../layout/rule-form/judging/JudgingSettings';
import { RuleConflicts } from '../../layout/rule-form/judging/RuleConflicts';
import { NotifyOnlySwitch } from './NotifyOnlySwitch';
import { RunsPanel } from './RunsPanel';
import {
  editorErrorsOf,
  hasErrors,
  mergeErrors,
  noErrors,
  type EditorErrors,
} from '../../layout/rule-form/editorErrors';
import { LeaveGuard } from '../../layout/rule-form/LeaveGuard';
import { FilterFields, TaskCards } from '../../layout/rule-form/RuleItemsFields';
import { AlertScheduleRow, WeekScheduleGrid } from '../../layout/rule-form/ScheduleGrid';
import { ActionSection } from '../../layout/rule-form/conditions/ActionSection';
import { Section } from '../../layout/rule-form/Section';
import { ConditionsCard } from '../../layout/rule-form/conditions/ConditionsCard';
import { editedNodeKeys, nodeKeyAt } from '../../layout/rule-form/conditions/conditionTouch';
import { fieldKeys, isTouched, noneTouched, onlyShown, touch, visibleEditorErrors, type Touched } from './fieldTouch';
import {
  judgingChanged,
  judgingDraftErrors,
  judgingDraftOf,
  judgingOnScreen,
  judgingPatchOf,
  judgingServerErrorsOf,
  type JudgingDraft,
  type JudgingErrors,
  type JudgingField,
} from '../../layout/rule-form/judging/judgingDraft';
import { SaveRuleButton } from './SaveRuleButton';
import { AlertRecipients } from './AlertRecipients';
import {
  expressiveDraftOf,
  expressiveErrorsOf,
  expressivePayloadOf,
  expressiveServerErrorsOf,
  type ExpressiveDraft,
  type FieldErrors,
} from '../../layout/rule-form/conditions/conditionDraft';
import { folderLimitsOf, type RuleWithConditions } from '../../layout/rule-form/conditions/ruleWithConditions';

const withConditions = (rule: RuleDto) => rule as RuleWithConditions;

/** The sticky header's shadow over the page scrolling beneath it. */
const stickyShadow = '0 2px 4px rgba(0, 0, 0, 0.08)';

export function RuleEditor({ rule, timezones }: { rule: RuleDto; timezones: TimezoneOption[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const canChange = usePermission('create_update_rules');
  // What the server holds: the rule as loaded, then as the Active switch last saved it.
  const [stored, setStored] = useState<RuleDto>(rule);
  const loaded = useMemo(() => editorValuesOf(stored), [stored]);
  const [values, setValues] = useState<EditorValues>(loaded);
  // A name someone typed (here, or before: not the automatic one) is never regenerated.
  const [nameTyped, setNameTyped] = useState(() => !nameIsAutomatic(loaded));
  const [touched, setTouched] = useState<EditorTouched>(untouched);
  // Which fields' own errors may show (changed or left, or all once Save is reached for).
  const [fieldsTouched, setFieldsTouched] = useState<Touched>(noneTouched);
  const touchFields = (...keys: string[]) => setFieldsTouched((t) => touch(t, ...keys));
  const [serverErrors, setServerErrors] = useState<EditorErrors>(noErrors);
  // The Conditions card and its Action: compared with what was loaded as the JSON Save would send.
  const loadedExpressive = useMemo(
    () => expressiveDraftOf(withConditions(stored).conditions, withConditions(stored).action),
    [stored],
  );
  const [expressive, setExpressive] = useState<ExpressiveDraft>(loadedExpressive);
  const [expressiveServerErrors, setExpressiveServerErrors] = useState<FieldErrors>({});
  const expressivePayload = expressivePayloadOf(expressive);
  const expressiveChanged = JSON.stringify(expressivePayload) !== JSON.stringify(expressivePayloadOf(loadedExpressive));
  const expressiveLiveErrors = useMemo(() => expressiveErrorsOf(expressive), [expressive]);
  const expressiveShown = (path: string) => {
    if (path.startsWith('action')) return isTouched(fieldsTouched, fieldKeys.action);
    const key = nodeKeyAt(expressive.group, path);
    return key === null || isTouched(fieldsTouched, fieldKeys.node(key));
  };
  const expressiveErrors = { ...onlyShown(expressiveLiveErrors, expressiveShown), ...expressiveServerErrors };
  // The judging settings: text as typed, sent with the rule when they moved.
  const [judging, setJudging] = useState<JudgingDraft>(() => judgingDraftOf(stored.judging));
  const [judgingServerErrors, setJudgingServerErrors] = useState<JudgingErrors>({});
  const judgingDirty = judgingChanged(stored.judging, judging);
  const judgingLiveErrors = useMemo(() => judgingDraftErrors(judging, MESSAGES.required), [judging]);
  // A window Meta removed is the stored rule's state, not a typing slip: it shows at once.
  const judgingShown = (field: JudgingField) =>
    field === 'attribution_window' || isTouched(fieldsTouched, fieldKeys.judging(field));
  const judgingErrors = { ...onlyShown(judgingLiveErrors, judgingShown), ...judgingServerErrors };
  const { errors: errorList, showError, clearErrors } = useErrorList();
  const canOpenTrash = usePermission('delete_rules');
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  // A saved rule changes its folder's row (name, counts): the folder lists load again when shown.
  const saveRule = useMutation({
    mutationFn: (patch: RulePatch) => dataProvider.saveRule(rule.id, patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.folders }),
  });
  const saving = saveRule.isPending;
  const saved = useRef(false);

  const dirty = hasUnsavedChanges(loaded, values, touched) || expressiveChanged || judgingDirty;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const liveErrors = useMemo(() => {
    const errors = editorErrorsOf(validateRuleItems(values.filters, values.tasks, { active: stored.is_active }) ?? {});
    if (!values.name.trim()) errors.name = MESSAGES.required;
    return errors;
  }, [values, stored.is_active]);
  const errors = mergeErrors(serverErrors, visibleEditorErrors(liveErrors, fieldsTouched));
  // Judging that did not move is not sent, so its state (a window Meta removed) does not hold the rest back.
  const invalid =
    hasErrors(liveErrors) ||
    Object.keys(expressiveLiveErrors).length > 0 ||
    (judgingDirty && Object.keys(judgingLiveErrors).length > 0);
  const canSave = dirty && !invalid && !saving && canChange;
  const patchOf = (): RulePatch => {
    const patch = buildRulePatch(loaded, values, touched);
    return {
      ...patch,
      ...(expressiveChanged ? expressivePayload : {}),
      ...(judgingDirty ? { judging: judgingPatchOf(judging) } : {}),
    };
  };
  const editExpressive = (next: ExpressiveDraft) => {
    setExpressiveServerErrors({});
    const edited = editedNodeKeys(expressive.group, next.group).map(fieldKeys.node);
    const actionEdited = JSON.stringify(next.action) !== JSON.stringify(expressive.action);
    touchFields(...edited, ...(actionEdited ? [fieldKeys.action] : []));
    setExpressive(next);
  };
  const editJudging = (next: Partial<JudgingDraft>, field?: JudgingField) => {
    if (field) {
      touchFields(fieldKeys.judging(field));
      setJudgingServerErrors(({ [field]: _edited, ...rest }) => rest);
    }
    setJudging((current) => ({ ...current, ...next }));
  };
  const showServerErrors = (error: unknown) => {
    const body = (error as { body?: Record<string, unknown> }).body;
    setServerErrors(editorErrorsOf(body));
    setExpressiveServerErrors(expressiveServerErrorsOf(body));
    setJudgingServerErrors(judgingServerErrorsOf(body));
    showError(error);
  };

  /** Filters and tasks change together with the regenerated name (docs/screens.md#states-and-transitions). */
  const editItems = (next: Pick<EditorValues, 'filters' | 'tasks'>) =>
    setValues((current) => ({ ...current, ...next, name: nameAfterEdit(current, next, !nameTyped) }));

  const clearServer = (part: { filter?: string; task?: string; name?: boolean }) =>
    setServerErrors((e) => {
      const next = { ...e, filters: { ...e.filters }, tasks: { ...e.tasks } };
      if (part.filter) delete next.filters[part.filter];
      if (part.task) {
        delete next.tasks[part.task];
        next.tasksGeneral = undefined;
      }
      if (part.name) next.name = undefined;
      return next;
    });

  const onFilter = (name: string, next: FilterItem) => {
    clearServer({ filter: name });
    touchFields(fieldKeys.filter(name));
    editItems({ filters: values.filters.map((f) => (f.name === name ? next : f)), tasks: values.tasks });
  };
  const onTaskToggle = (name: TaskName, active: boolean) => {
    clearServer({ task: name });
    touchFields(fieldKeys.task(name));
    editItems({
      filters: values.filters,
      tasks: values.tasks.map((t) => (t.name === name ? { ...t, is_active: active } : t)),
    });
  };
  const onTaskValue = (name: TaskName, key: Parameters<typeof setTaskValue>[2], value: string) => {
    clearServer({ task: name });
    touchFields(fieldKeys.taskValue(name, key));
    editItems({ filters: values.filters, tasks: setTaskValue(values.tasks, name, key, value) });
  };
  const editSchedule = (schedule: EditorValues['schedule']) => {
    setValues((v) => ({ ...v, schedule }));
    setTouched((t) => ({ ...t, schedule: true }));
  };
  const editAlerts = (alertSchedule: EditorValues['alertSchedule']) => {
    setValues((v) => ({ ...v, alertSchedule }));
    setTouched((t) => ({ ...t, alertSchedule: true }));
  };
  const fillDefault = () => {
    setValues((v) => ({ ...v, schedule: defaultWeek(), alertSchedule: defaultAlertDay() }));
    setTouched((t) => ({ ...t, schedule: true, alertSchedule: true }));
  };

  /**
   * The Active switch saves the editor's changes and the new state in one PATCH, and stays here; a
   * refusal (say, no task is on) shows the server's reasons on the fields they concern.
   */
  const switchActive = async (active: boolean) => {
    clearErrors();
    try {
      const saved = await saveRule.mutateAsync({ ...patchOf(), is_active: active });
      const savedValues = editorValuesOf(saved);
      setStored(saved);
      setValues(savedValues);
      setExpressive(expressiveDraftOf(withConditions(saved).conditions, withConditions(saved).action));
      setExpressiveServerErrors({});
      setJudging(judgingDraftOf(saved.judging));
      setJudgingServerErrors({});
      setTouched(untouched);
      setFieldsTouched(noneTouched());
      setServerErrors(noErrors());
      notify(translate(active ? 'rules.editor.activated' : 'rules.editor.deactivated'), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
    } catch (error) {
      showServerErrors(error);
    }
  };

  const save = async () => {
    clearErrors();
    try {
      await saveRule.mutateAsync(patchOf());
      saved.current = true;
      notify(translate('rules.editor.saved'), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      navigate('/');
    } catch (error) {
      showServerErrors(error);
    }
  };

  const timezone = timezones.find((z) => z.value === values.timezone) ?? {
    value: values.timezone,
    title: values.timezone,
  };
  const nameLabel = translate('rules.editor.name');
  const narrow = useNarrowScreen();
  // Where the width puts it: in the phone's sticky row, or after Preview and Run now.
  const saveButton = (
    <SaveRuleButton
      canSave={canSave}
      blocked={dirty && invalid && !saving}
      saving={saving}
      onSave={save}
      onReveal={() => setFieldsTouched((t) => (t.all ? t : { ...t, all: true }))}
    />
  );
  return (
    <Stack spacing={2} sx={{ py: 1 }}>
      <LeaveGuard shouldBlock={() => dirtyRef.current && !saved.current} />
      {/*
       * The header. Where there is room, all of it is one sticky bar. On a phone only its first row
       * sticks (back, name, Save, the overflow menu), and the rest (Try on history, Preview, Run now,
       * the folder and the switches) scrolls with the page: the outer bar and each row's box give up
       * their own box (display: contents) at the other width, so nothing remounts when the width
       * changes (a dialog opened from the header stays open).
       */}
      <Paper
        variant="outlined"
        sx={{
          display: { xs: 'contents', sm: 'flex' },
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1,
          position: { sm: 'sticky' },
          top: 48,
          zIndex: 2,
          px: 1,
          py: 1,
          boxShadow: stickyShadow,
        }}
      >
        <Paper
          variant="outlined"
          sx={{
            display: { xs: 'flex', sm: 'contents' },
            alignItems: 'center',
            gap: 1,
            position: { xs: 'sticky', sm: 'static' },
            top: 48,
            zIndex: 2,
            px: 1,
            py: 1,
            boxShadow: stickyShadow,
          }}
        >
          <Tooltip title={translate('rules.editor.back')}>
            <IconButton aria-label={translate('rules.editor.back')} onClick={() => navigate('/')}>
              <ArrowBackIcon />
            </IconButton>
          </Tooltip>
          <TextField
            size="small"
            value={values.name}
            onChange={(e) => {
              clearServer({ name: true });
              touchFields(fieldKeys.name);
              setNameTyped(true);
              setValues((v) => ({ ...v, name: e.target.value }));
            }}
            error={Boolean(errors.name)}
            helperText={errors.name}
            slotProps={{ htmlInput: { 'aria-label': nameLabel } }}
            placeholder={nameLabel}
            sx={{ flex: 1, minWidth: { xs: 0, sm: 240 } }}
          />
          {narrow ? null : (
            <Button component={RouterLink} to={`/log/?rule_id=${rule.id}`} startIcon={<HistoryIcon />}>
              {translate('rules.editor.log')}
            </Button>
          )}
          {narrow ? null : (
            <Button component={RouterLink} to={`/impact?scope=rule&id=${rule.id}`} startIcon={<InsightsIcon />}>
              {translate('backtest.impact')}
            </Button>
          )}
          {narrow ? saveButton : null}
          {narrow ? (
            <RowActions label={translate('rules.editor.more_actions')}>
              <RowAction
                label={translate('rules.editor.log')}
                icon={<HistoryIcon fontSize="small" />}
                to={`/log/?rule_id=${rule.id}`}
              />
              <RowAction
                label={translate('backtest.impact')}
                icon={<InsightsIcon fontSize="small" />}
                to={`/impact?scope=rule&id=${rule.id}`}
              />
              <RowAction
                label={translate('app.trash.link')}
                icon={<DeleteOutlineIcon fontSize="small" />}
                disabled={!canOpenTrash}
                to="/trash/"
              />
            </RowActions>
          ) : null}
        </Paper>
        <Box
          sx={{
            display: { xs: 'flex', sm: 'contents' },
            flexWrap: 'wrap',
            alignItems: 'center',
            columnGap: 1,
            px: 1,
            mt: { xs: 1 },
          }}
        >
          <TryOnHistory
            ruleId={rule.id}
            folderId={rule.folder.id}
            ruleName={values.name.trim() || rule.name}
            folderName={rule.folder.name}
            accountName={rule.folder.meta_ad_account?.account_name}
            judging={judgingOnScreen(stored.judging, judging)}
            values={values}
            conditions={expressivePayload.conditions}
            action={expressivePayload.action}
          />
          <RuleRunActions
            ruleId={rule.id}
            name={rule.name}
            changes={Boolean(withConditions(rule).action && withConditions(rule).action!.kind !== 'turn_off')}
          />
          {narrow ? null : saveButton}
          {narrow ? null : <TrashLink />}
          <Stack
            direction="row"
            alignItems="center"
            justifyContent="space-between"
            useFlexGap
            flexWrap="wrap"
            // A line of its own, right under the first (the bar's gap taken back).
            sx={{ flexBasis: '100%', mt: { sm: -1 }, pl: { xs: 0, sm: 6 } }}
          >
            <Typography variant="caption" color="text.secondary">
              {[rule.folder.name, rule.folder.meta_ad_account?.account_name].filter(Boolean).join(' · ')}
            </Typography>
            <Stack direction="row" spacing={2} alignItems="center">
              <ActiveSwitch active={stored.is_active} busy={saving} onChange={switchActive} />
              <NotifyOnlySwitch ruleId={rule.id} initial={rule.notify_only} />
            </Stack>
          </Stack>
        </Box>
      </Paper>
      <ErrorList errors={errorList} />
      <Section title={translate('rules.editor.filters')}>
        <FilterFields filters={values.filters} errors={errors.filters} onChange={onFilter} />
      </Section>
      <Section title={translate('rules.editor.tasks')}>
        <TaskCards
          tasks={values.tasks}
          errors={errors.tasks}
          generalError={errors.tasksGeneral}
          onToggle={onTaskToggle}
          onValue={onTaskValue}
          onBlur={(name, key) => touchFields(fieldKeys.taskValue(name, key))}
        />
      </Section>
      <Section title={translate('conditions.title')} help={translate('conditions.help')}>
        <ConditionsCard
          on={expressive.on}
          group={expressive.group}
          errors={expressiveErrors}
          onToggle={(on) => editExpressive({ ...expressive, on })}
          onChange={(group) => editExpressive({ ...expressive, group })}
          onTouch={(key) => touchFields(fieldKeys.node(key))}
        />
      </Section>
      {expressive.on ? (
        <Section title={translate('conditions.action.title')} help={translate('conditions.action.help')}>
          <Box onBlur={() => touchFields(fieldKeys.action)}>
            <ActionSection
              action={expressive.action}
              limits={folderLimitsOf(stored)}
              errors={expressiveErrors}
              onChange={(action) => editExpressive({ ...expressive, action })}
            />
          </Box>
        </Section>
      ) : null}
      <Section title={translate('judging.title')} help={translate('judging.help')}>
        <RuleConflicts ruleId={rule.id} />
        <JudgingSettings
          adAccountId={rule.folder.meta_ad_account?.ad_account_id ?? null}
          carriedOver={stored.judging.carried_over}
          draft={judging}
          errors={judgingErrors}
          disabled={!canChange || saving}
          onChange={editJudging}
          onTouch={(field) => touchFields(fieldKeys.judging(field))}
        />
      </Section>
      <Section
        title={translate('rules.editor.schedule')}
        help={translate('rules.editor.schedule_help')}
        action={
          <Button variant="outlined" onClick={fillDefault}>
            {translate('rules.editor.fill_default')}
          </Button>
        }
      >
        <WeekScheduleGrid
          schedule={values.schedule}
          onToggleCell={(day, hour) => editSchedule(toggleCell(values.schedule, day, hour))}
          onToggleDay={(day) => editSchedule(toggleDay(values.schedule, day))}
          onToggleHour={(hour) => editSchedule(toggleHourAllDays(values.schedule, hour))}
        />
        <Autocomplete
          options={timezones}
          value={timezone}
          disableClearable
          onChange={(_event, option) => {
            setValues((v) => ({ ...v, timezone: option.value }));
            setTouched((t) => ({ ...t, timezone: true }));
          }}
          getOptionLabel={(option) => option.title}
          isOptionEqualToValue={(option, value) => option.value === value.value}
          renderInput={(params) => <TextField {...params} size="small" label={translate('rules.editor.timezone')} />}
          sx={{ mt: 2, maxWidth: 420 }}
        />
      </Section>
      <Section title={translate('rules.editor.alert_schedule')} help={translate('rules.editor.alert_help')}>
        <AlertScheduleRow
          schedule={values.alertSchedule}
          onToggle={(hour) => editAlerts(toggleAlertHour(values.alertSchedule, hour))}
        />
        <AlertRecipients folder={rule.folder} />
      </Section>
      <Section title={translate('rules.editor.runs.title')} help={translate('rules.editor.runs.help')}>
        <RunsPanel ruleId={rule.id} />
      </Section>
      <Section title={translate('rules.editor.exemptions.title')} help={translate('rules.editor.exemptions.help')}>
        <ExemptionsList ruleId={rule.id} />
      </Section>
    </Stack>
  );
}
