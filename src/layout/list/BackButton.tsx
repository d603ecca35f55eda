/** Back: to the previous page of this app when there is one, otherwise home. */
import ArrowBack from '@mui/icons-material/ArrowBack';
import { IconButton, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';

export function BackButton({ fallback = '/' }: { fallback?: string }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const label = translate('app.list.back');
  const back = () => {
    // react-router numbers its history entries; idx 0 means this page was opened directly.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(fallback);
  };
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={back}>
        <ArrowBack />
      </IconButton>
    </Tooltip>
  );
}
