/**
 * The 'A' (activity), 'L' (log) and 'I' (impact report) buttons of folder and rule rows; view_logs enables them
 * (docs/contract.md#permissions). Each keeps its letter, and its name and tooltip say what it opens and whose
 * ('Activity of rule X', 'Log of folder Y', 'Impact of rule X').
 */
import HistoryIcon from '@mui/icons-material/History';
import InsightsIcon from '@mui/icons-material/Insights';
import ListAltIcon from '@mui/icons-material/ListAlt';
import { useTranslate } from 'react-admin';
import { RowAction } from '../../layout/RowActions';
import { usePermission } from '../../providers/usePermissions';

export function HistoryButtons({ param, id, name }: { param: 'folder_id' | 'rule_id'; id: number; name: string }) {
  const translate = useTranslate();
  const allowed = usePermission('view_logs');
  const whose = param === 'folder_id' ? 'folder' : 'rule';
  return (
    <>
      <RowAction
        text={translate('rules.history.activity')}
        label={translate(`rules.history.activity_of_${whose}`, { name })}
        icon={<ListAltIcon fontSize="small" />}
        disabled={!allowed}
        to={`/activity?${param}=${id}`}
      />
      <RowAction
        text={translate('rules.history.log')}
        label={translate(`rules.history.log_of_${whose}`, { name })}
        icon={<HistoryIcon fontSize="small" />}
        disabled={!allowed}
        to={`/log?${param}=${id}`}
      />
      <RowAction
        text={translate('rules.history.impact')}
        label={translate(`rules.history.impact_of_${whose}`, { name })}
        icon={<InsightsIcon fontSize="small" />}
        disabled={!allowed}
        to={`/impact?scope=${whose}&id=${id}`}
      />
    </>
  );
}
