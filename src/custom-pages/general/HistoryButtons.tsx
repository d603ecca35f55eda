/** The 'A' (activity), 'L' (log) and 'I' (impact report) buttons of folder and rule rows; view_logs enables them (docs/contract.md#permissions). */
import HistoryIcon from '@mui/icons-material/History';
import InsightsIcon from '@mui/icons-material/Insights';
import ListAltIcon from '@mui/icons-material/ListAlt';
import { useTranslate } from 'react-admin';
import { RowAction } from '../../layout/RowActions';
import { usePermission } from '../../providers/usePermissions';

export function HistoryButtons({ param, id, name }: { param: 'folder_id' | 'rule_id'; id: number; name: string }) {
  const translate = useTranslate();
  const allowed = usePermission('view_logs');
  return (
    <>
      <RowAction
        text={translate('rules.history.activity')}
        label={translate('rules.history.activity_of', { name })}
        icon={<ListAltIcon fontSize="small" />}
        disabled={!allowed}
        to={`/activity?${param}=${id}`}
      />
      <RowAction
        text={translate('rules.history.log')}
        label={translate('rules.history.log_of', { name })}
        icon={<HistoryIcon fontSize="small" />}
        disabled={!allowed}
        to={`/log?${param}=${id}`}
      />
      <RowAction
        text={translate('rules.history.impact')}
        label={translate('impact.title', { name })}
        icon={<InsightsIcon fontSize="small" />}
        disabled={!allowed}
        to={`/impact?scope=${param === 'folder_id' ? 'folder' : 'rule'}&id=${id}`}
      />
    </>
  );
}
