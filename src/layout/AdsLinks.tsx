/**
 * Links into the ads list from the screens that lead there: a folder's row (its ad account's ads), a
 * run record (the ads the run looked at, the ads its rule turned off) and an Activity entry (its ad
 * now). The ads list is view_logs, as the Activity.
 */
import AdsClickIcon from '@mui/icons-material/AdsClick';
import { IconButton, Link, Stack, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { RowAction } from './RowActions';
import { usePermission } from '../providers/usePermissions';

/** A folder row's action (a button, or a menu item on a phone). */
export function FolderAdsAction({ folder }: { folder: { id: number; name: string } }) {
  const translate = useTranslate();
  const allowed = usePermission('view_logs');
  return (
    <RowAction
      label={translate('ads.links.of_folder', { name: folder.name })}
      icon={<AdsClickIcon fontSize="small" />}
      disabled={!allowed}
      to={`/ads?folder_id=${folder.id}`}
    />
  );
}

/** A run record's links: the ads it looked at, and those its rule turned off that are still off. */
export function RunAdsLinks({ runId, ruleId }: { runId: number; ruleId: number }) {
  const translate = useTranslate();
  const allowed = usePermission('view_logs');
  if (!allowed) return null;
  return (
    <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
      <Link component={RouterLink} to={`/ads?run_id=${runId}`} variant="body2">
        {translate('ads.links.of_run')}
      </Link>
      <Link component={RouterLink} to={`/ads?rule_id=${ruleId}`} variant="body2">
        {translate('ads.links.of_rule')}
      </Link>
    </Stack>
  );
}

/** An Activity entry's ad as it is now, in the ads list. */
export function EntryAdLink({ adId }: { adId: string }) {
  const translate = useTranslate();
  const allowed = usePermission('view_logs');
  if (!allowed) return null;
  const label = translate('ads.links.of_entry', { id: adId });
  return (
    <Tooltip title={label}>
      <IconButton size="small" component={RouterLink} to={`/ads?ad_id=${adId}`} aria-label={label}>
        <AdsClickIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
