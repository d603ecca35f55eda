/**
 * The folder tree of the general view: a folder row (client type, name, '{n} rules, {m} active' — '1 rule' for one —,
 * edit / trash / add rule / A / L) with its rules beneath (active switch, name, ad account, a
 * Notify only chip, duplicate / edit / trash / A / L), and above them the folder's lead outcome
 * figures (FolderOutcomes). Clicking a rule opens its editor, where Notify only is switched (the row
 * only shows it: a mode change belongs beside the rule's runs).
 */
import { FolderCredentialsFlag, FolderHealthBadge, RuleConflictFlag } from './FolderSignals';
import AddIcon from '@mui/icons-material/Add';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, Chip, Collapse, IconButton, Link, Paper, Stack, Switch, Tooltip, Typography } from '@mui/material';
import { RowAction, RowActions } from '../../layout/RowActions';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { FolderDto, FolderRuleDto } from '../../../shared/folders';
import { usePermission } from '../../providers/usePermissions';
import { FolderOutcomes } from './FolderOutcomes';
import { HistoryButtons } from './HistoryButtons';
import { RuleRunActions } from '../../layout/runs/RuleRunActions';
import { FolderAdsAction } from '../../layout/AdsLinks';

export interface FolderActions {
  onToggleOpen(folder: FolderDto): void;
  onEditFolder(folder: FolderDto): void;
  onTrashFolder(folder: FolderDto): void;
  onAddRule(folder: FolderDto): void;
  onToggleRule(folder: FolderDto, rule: FolderRuleDto): void;
  onDuplicateRule(folder: FolderDto, rule: FolderRuleDto): void;
  onTrashRule(folder: FolderDto, rule: FolderRuleDto): void;
}

const CHIP_WIDTH = 52;
/** Where a folder row's chip starts: its padding, the open/close button (34 px; 44 on a phone, src/theme.ts) and the gap. */
const FOLDER_ROW_LEADING = { xs: `${8 + 44 + 8}px`, sm: `${8 + 34 + 8}px` };

/** An icon action of a row (an icon button, or a menu item inside <RowActions> on a phone). */
export function RowButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return <RowAction label={label} disabled={disabled} onClick={onClick} icon={children} />;
}

function RuleRow({
  folder,
  rule,
  actions,
  busy,
}: {
  folder: FolderDto;
  rule: FolderRuleDto;
  actions: FolderActions;
  busy: boolean;
}) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const canChange = usePermission('create_update_rules');
  const canRead = usePermission('read_rules');
  const editorPath = `/edit-rule/${rule.id}`;
  return (
    <Stack
      direction="row"
      alignItems="center"
      spacing={1}
      data-testid={`rule-${rule.id}`}
      onClick={canRead ? () => navigate(editorPath) : undefined}
      // The switch sits under the folder's chip and the rule's name under the folder's name.
      sx={{
        pl: FOLDER_ROW_LEADING,
        pr: 1,
        py: 0.25,
        borderTop: 1,
        borderColor: 'divider',
        cursor: canRead ? 'pointer' : 'default',
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <Box sx={{ width: CHIP_WIDTH, flexShrink: 0, display: 'flex', justifyContent: 'center' }}>
        <Switch
          size="small"
          checked={rule.is_active}
          disabled={!canChange || busy}
          onClick={(event) => event.stopPropagation()}
          onChange={() => actions.onToggleRule(folder, rule)}
          slotProps={{ input: { 'aria-label': translate('rules.general.active', { name: rule.name }) } }}
        />
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {canRead ? (
          <Link
            component={RouterLink}
            to={editorPath}
            underline="hover"
            color="inherit"
            onClick={(e: MouseEvent) => e.stopPropagation()}
            noWrap
            sx={{ display: 'block' }}
          >
            {rule.name}
          </Link>
        ) : (
          <Typography noWrap>{rule.name}</Typography>
        )}
        <Typography variant="caption" color="text.secondary" noWrap component="div">
          {folder.meta_ad_account?.account_name}
        </Typography>
      </Box>
      <RuleConflictFlag rule={rule} />
      {rule.notify_only ? (
        <Tooltip title={translate('rules.general.notify_only_hint')}>
          <Chip size="small" color="info" variant="outlined" label={translate('rules.general.notify_only')} />
        </Tooltip>
      ) : null}
      <RowActions label={translate('rules.general.rule_actions', { name: rule.name })}>
        <RowButton
          label={translate('rules.general.duplicate_rule', { name: rule.name })}
          disabled={!canChange || busy}
          onClick={() => actions.onDuplicateRule(folder, rule)}
        >
          <ContentCopyIcon fontSize="small" />
        </RowButton>
        <RowButton
          label={translate('rules.general.edit_rule', { name: rule.name })}
          disabled={!canRead}
          onClick={() => navigate(editorPath)}
        >
          <EditOutlinedIcon fontSize="small" />
        </RowButton>
        <RowButton
          label={translate('rules.general.trash_rule', { name: rule.name })}
          disabled={!canChange || busy}
          onClick={() => actions.onTrashRule(folder, rule)}
        >
          <DeleteOutlineIcon fontSize="small" />
        </RowButton>
        <RuleRunActions ruleId={rule.id} name={rule.name} compact />
        <HistoryButtons param="rule_id" id={rule.id} name={rule.name} />
      </RowActions>
    </Stack>
  );
}

export function FolderNode({
  folder,
  open,
  busy,
  actions,
}: {
  folder: FolderDto;
  open: boolean;
  busy: boolean;
  actions: FolderActions;
}) {
  const translate = useTranslate();
  const canChange = usePermission('create_update_rules');
  const canRead = usePermission('read_rules');
  const toggleLabel = translate(open ? 'rules.general.collapse' : 'rules.general.expand', { name: folder.name });
  return (
    <Paper
      variant="outlined"
      component="li"
      sx={{ listStyle: 'none', overflow: 'hidden' }}
      aria-label={folder.name}
      data-testid={`folder-${folder.id}`}
    >
      <Stack
        direction="row"
        alignItems="center"
        spacing={1}
        sx={{ px: 1, py: 0.5, cursor: 'pointer' }}
        onClick={() => actions.onToggleOpen(folder)}
      >
        <IconButton
          size="small"
          aria-label={toggleLabel}
          aria-expanded={open}
          onClick={(event) => {
            event.stopPropagation();
            actions.onToggleOpen(folder);
          }}
        >
          {open ? <ExpandMoreIcon /> : <ChevronRightIcon />}
        </IconButton>
        <Chip
          size="small"
          label={folder.client_type}
          color={folder.client_type === 'EDM' ? 'primary' : 'secondary'}
          sx={{ width: CHIP_WIDTH }}
        />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography fontWeight={600} noWrap>
            {folder.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {[folder.meta_ad_account?.account_name, translate(`rules.plans.${folder.plan}`, { _: folder.plan })]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        </Box>
        <FolderHealthBadge folder={folder} />
        <FolderCredentialsFlag folder={folder} />
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ whiteSpace: 'nowrap', display: { xs: 'none', sm: 'block' } }}
        >
          {translate('rules.general.counts', { smart_count: folder.rules_count, m: folder.active_rules_count })}
        </Typography>
        <RowActions label={translate('rules.general.folder_actions', { name: folder.name })}>
          <RowButton
            label={translate('rules.general.add_rule_to', { name: folder.name })}
            disabled={!canChange || busy}
            onClick={() => actions.onAddRule(folder)}
          >
            <AddIcon fontSize="small" />
          </RowButton>
          <RowButton
            label={translate('rules.general.edit_folder', { name: folder.name })}
            disabled={!canRead}
            onClick={() => actions.onEditFolder(folder)}
          >
            <EditOutlinedIcon fontSize="small" />
          </RowButton>
          <RowButton
            label={translate('rules.general.trash_folder', { name: folder.name })}
            disabled={!canChange || busy}
            onClick={() => actions.onTrashFolder(folder)}
          >
            <DeleteOutlineIcon fontSize="small" />
          </RowButton>
          <HistoryButtons param="folder_id" id={folder.id} name={folder.name} />
          <FolderAdsAction folder={folder} />
        </RowActions>
      </Stack>
      <Collapse in={open} unmountOnExit>
        <FolderOutcomes folder={folder} indent={FOLDER_ROW_LEADING} />
        {folder.rules.length ? (
          folder.rules.map((rule) => (
            <RuleRow key={rule.id} folder={folder} rule={rule} actions={actions} busy={busy} />
          ))
        ) : (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ pl: 7, py: 1, borderTop: 1, borderColor: 'divider' }}
          >
            {translate('rules.general.no_rules')}
          </Typography>
        )}
      </Collapse>
    </Paper>
  );
}
