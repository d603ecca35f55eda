/**
 * The rule editor's Conditions card (docs/screens.md, Edit rule): a switch, then the builder — a
 * group of All of / Any of holding conditions and groups (nested at most three deep), each
 * condition a ConditionRow. Errors show at their fields: the server's at once, the card's own once
 * their condition was touched (the editor decides, with `onTouch`).
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import {
  Box,
  Button,
  FormControlLabel,
  FormHelperText,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { ConditionRow } from './ConditionRow';
import { canNest, newCondition, newGroup, type FieldErrors, type GroupDraft, type NodeDraft } from './conditionDraft';

/** Numbers the conditions in reading order across groups, for their names ("Condition 3"). */
function numbering(group: GroupDraft, start = 1, into = new Map<string, number>()) {
  let n = start;
  for (const node of group.nodes) {
    if (node.type === 'group') n = numbering(node, n, into).next;
    else into.set(node.key, n++);
  }
  return { numbers: into, next: n };
}

function GroupEditor({
  group,
  path,
  depth,
  numbers,
  errors,
  onChange,
  onRemove,
  onTouch,
}: {
  group: GroupDraft;
  path: string;
  depth: number;
  numbers: Map<string, number>;
  errors: FieldErrors;
  onChange: (next: GroupDraft) => void;
  onTouch?: (key: string) => void;
  onRemove?: () => void;
}) {
  const translate = useTranslate();
  const matchLabel = translate('conditions.match_label');
  const setNode = (key: string, next: NodeDraft | null) =>
    onChange({
      ...group,
      nodes: group.nodes.flatMap((n) => (n.key !== key ? [n] : next ? [next] : [])),
    });
  const groupError = errors[`${path}.conditions`] ?? errors[`${path}.match`] ?? (depth > 1 ? errors[path] : undefined);
  const name = translate('conditions.group_label', { match: translate(`conditions.match.${group.match}`) });
  return (
    <Stack
      spacing={1.5}
      role="group"
      aria-label={name}
      sx={depth > 1 ? { borderLeft: 2, borderColor: 'divider', pl: { xs: 1, sm: 1.5 } } : undefined}
    >
      <Stack direction="row" spacing={1} alignItems="center">
        <TextField
          select
          size="small"
          value={group.match}
          onChange={(e) => onChange({ ...group, match: e.target.value as GroupDraft['match'] })}
          slotProps={{ select: { inputProps: { 'aria-label': matchLabel } } }}
          // The theme makes text fields full width: this one is a short choice beside its group's remove button.
          fullWidth={false}
          sx={{ minWidth: 110 }}
        >
          {(['all', 'any'] as const).map((m) => (
            <MenuItem key={m} value={m}>
              {translate(`conditions.match.${m}`)}
            </MenuItem>
          ))}
        </TextField>
        {onRemove ? (
          <Tooltip title={translate('conditions.remove_group')}>
            <IconButton aria-label={translate('conditions.remove_group')} onClick={onRemove}>
              <DeleteOutlineIcon />
            </IconButton>
          </Tooltip>
        ) : null}
      </Stack>
      {groupError ? <FormHelperText error>{groupError}</FormHelperText> : null}
      {group.nodes.map((node, index) => {
        const at = `${path}.conditions.${index}`;
        return node.type === 'group' ? (
          <GroupEditor
            key={node.key}
            group={node}
            path={at}
            depth={depth + 1}
            numbers={numbers}
            errors={errors}
            onTouch={onTouch}
            onChange={(next) => setNode(node.key, next.nodes.length ? next : null)}
            onRemove={() => setNode(node.key, null)}
          />
        ) : (
          // Leaving a condition's fields touches it: its errors may show from then on.
          <Box key={node.key} onBlur={() => onTouch?.(node.key)}>
            <ConditionRow
              condition={node}
              number={numbers.get(node.key) ?? index + 1}
              path={at}
              errors={errors}
              onChange={(next) => setNode(node.key, next)}
              onRemove={() => setNode(node.key, null)}
            />
          </Box>
        );
      })}
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => onChange({ ...group, nodes: [...group.nodes, newCondition()] })}
        >
          {translate('conditions.add_condition')}
        </Button>
        {canNest(depth) ? (
          <Button
            size="small"
            startIcon={<LibraryAddIcon />}
            onClick={() =>
              onChange({ ...group, nodes: [...group.nodes, newGroup(group.match === 'all' ? 'any' : 'all')] })
            }
          >
            {translate('conditions.add_group')}
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}

export function ConditionsCard({
  on,
  group,
  errors,
  onToggle,
  onChange,
  onTouch,
}: {
  on: boolean;
  group: GroupDraft;
  errors: FieldErrors;
  onToggle: (on: boolean) => void;
  onChange: (next: GroupDraft) => void;
  /** A condition's fields were left (by its key). */
  onTouch?: (key: string) => void;
}) {
  const translate = useTranslate();
  const { numbers } = numbering(group);
  return (
    <Stack spacing={1.5}>
      <FormControlLabel
        control={<Switch checked={on} onChange={(e) => onToggle(e.target.checked)} />}
        label={translate('conditions.use')}
      />
      {on ? (
        <Box>
          {errors.conditions ? <FormHelperText error>{errors.conditions}</FormHelperText> : null}
          <GroupEditor
            group={group}
            path="conditions"
            depth={1}
            numbers={numbers}
            errors={errors}
            onChange={onChange}
            onTouch={onTouch}
          />
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('conditions.off')}
        </Typography>
      )}
    </Stack>
  );
}
