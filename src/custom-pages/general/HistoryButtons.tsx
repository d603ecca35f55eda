/** The 'A' (activity) and 'L' (log) buttons of folder and rule rows; view_logs enables them (docs/contract.md#permissions). */
import { Button, Stack, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { usePermission } from '../../providers/usePermissions';

export function HistoryButtons({ param, id, name }: { param: 'folder_id' | 'rule_id'; id: number; name: string }) {
  const translate = useTranslate();
  const allowed = usePermission('view_logs');
  const links = [
    {
      text: translate('rules.history.activity'),
      label: translate('rules.history.activity_of', { name }),
      to: `/activity?${param}=${id}`,
    },
    {
      text: translate('rules.history.log'),
      label: translate('rules.history.log_of', { name }),
      to: `/log?${param}=${id}`,
    },
  ];
  return (
    <Stack direction="row" spacing={0.5}>
      {links.map(({ text, label, to }) => (
        <Tooltip key={to} title={label}>
          <span>
            <Button
              size="small"
              variant="outlined"
              sx={{ minWidth: 32, px: 0.5 }}
              aria-label={label}
              disabled={!allowed}
              {...(allowed ? { component: RouterLink, to } : {})}
              onClick={(event: React.MouseEvent) => event.stopPropagation()}
            >
              {text}
            </Button>
          </span>
        </Tooltip>
      ))}
    </Stack>
  );
}
