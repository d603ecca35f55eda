/**
 * The rule editor's header. Where there is room, all of it is one sticky bar. On a phone only its
 * first row sticks (back, name, Save, the overflow menu), and the rest (Try on history, Preview, Run
 * now, the folder and the switches) scrolls with the page: the outer bar and each row's box give up
 * their own box (display: contents) at the other width, so nothing remounts when the width changes
 * (a dialog opened from the header stays open).
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import HistoryIcon from '@mui/icons-material/History';
import InsightsIcon from '@mui/icons-material/Insights';
import { Box, Button, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { RuleDto } from '../../../shared/rules';
import { RowAction, RowActions, useNarrowScreen } from '../../layout/RowActions';
import { TrashLink } from '../../layout/TrashLink';
import { judgingOnScreen } from '../../layout/rule-form/judging/judgingDraft';
import { RuleRunActions } from '../../layout/runs/RuleRunActions';
import { usePermission } from '../../providers/usePermissions';
import { TryOnHistory } from '../backtest/TryOnHistory';
import { ActiveSwitch } from './ActiveSwitch';
import { NotifyOnlySwitch } from './NotifyOnlySwitch';
import { SaveRuleButton } from './SaveRuleButton';
import { withConditions } from './useConditionsDraft';
import type { RuleEditorState } from './useRuleEditor';

/** The sticky header's shadow over the page scrolling beneath it. */
const stickyShadow = '0 2px 4px rgba(0, 0, 0, 0.08)';

interface HeaderRowProps {
  rule: RuleDto;
  editor: RuleEditorState;
  narrow: boolean;
  saveButton: ReactNode;
}

export function RuleEditorHeader({ rule, editor }: { rule: RuleDto; editor: RuleEditorState }) {
  const narrow = useNarrowScreen();
  // Where the width puts it: in the phone's sticky row, or after Preview and Run now.
  const saveButton = (
    <SaveRuleButton
      canSave={editor.canSave}
      blocked={editor.blocked}
      saving={editor.saving}
      onSave={editor.save}
      onReveal={editor.revealErrors}
    />
  );
  return (
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
      <HeaderNameRow rule={rule} editor={editor} narrow={narrow} saveButton={saveButton} />
      <HeaderToolsRow rule={rule} editor={editor} narrow={narrow} saveButton={saveButton} />
    </Paper>
  );
}

/** The first row: back, the name, Log and Impact (or, on a phone, Save and the overflow menu). */
function HeaderNameRow({ rule, editor, narrow, saveButton }: HeaderRowProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const canOpenTrash = usePermission('delete_rules');
  const nameLabel = translate('rules.editor.name');
  const nameError = editor.items.errors.name;
  return (
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
        value={editor.items.values.name}
        onChange={(e) => editor.items.editName(e.target.value)}
        error={Boolean(nameError)}
        helperText={nameError}
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
  );
}

/** The rest: Try on history, Preview, Run now (then Save and the trash where there is room), the folder and the switches. */
function HeaderToolsRow({ rule, editor, narrow, saveButton }: HeaderRowProps) {
  const { stored, items, conditions, judging } = editor;
  return (
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
        ruleName={items.values.name.trim() || rule.name}
        folderName={rule.folder.name}
        accountName={rule.folder.meta_ad_account?.account_name}
        judging={judgingOnScreen(stored.judging, judging.judging)}
        values={items.values}
        conditions={conditions.payload.conditions}
        action={conditions.payload.action}
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
          <ActiveSwitch active={stored.is_active} busy={editor.saving} onChange={editor.switchActive} />
          <NotifyOnlySwitch ruleId={rule.id} initial={rule.notify_only} />
        </Stack>
      </Stack>
    </Box>
  );
}
