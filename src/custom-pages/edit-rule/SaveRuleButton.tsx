/**
 * The rule editor's one Save. It is on only while something changed and every field is valid
 * (docs/screens.md, Edit rule); while changes wait on a field that is empty or wrong, pointing at it
 * (or tabbing to it) says so and shows every field's error, those not touched yet included.
 */
import SaveIcon from '@mui/icons-material/Save';
import { Box, Button, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';

export function SaveRuleButton({
  canSave,
  blocked,
  saving,
  onSave,
  onReveal,
}: {
  canSave: boolean;
  /** Changes are waiting on fields with errors. */
  blocked: boolean;
  saving: boolean;
  onSave: () => void;
  onReveal: () => void;
}) {
  const translate = useTranslate();
  return (
    <Tooltip title={blocked ? translate('rules.editor.save_blocked') : ''} describeChild>
      {/* A disabled button takes no pointer or focus: the box around it does, to say why. */}
      <Box
        component="span"
        tabIndex={blocked ? 0 : undefined}
        onPointerEnter={blocked ? onReveal : undefined}
        onFocus={blocked ? onReveal : undefined}
        sx={{ display: 'inline-flex' }}
      >
        <Button variant="contained" startIcon={<SaveIcon />} disabled={!canSave} loading={saving} onClick={onSave}>
          {translate('rules.editor.save')}
        </Button>
      </Box>
    </Tooltip>
  );
}
