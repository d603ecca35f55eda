/**
 * Host for an embedded chat messenger frame (/messenger/:type, public, lazily loaded). The messenger
 * itself is not specified: this is the empty, full-window frame it mounts into.
 */
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../layout/pageTitle';

export function MessengerFrame() {
  const { type = '' } = useParams();
  const translate = useTranslate();
  useDocumentTitle(translate('app.page.messenger'));
  return (
    <Box
      component="main"
      id="messenger-frame"
      data-messenger-type={type}
      aria-label={`${translate('app.page.messenger')} ${type}`}
      sx={{ width: '100vw', height: '100vh', bgcolor: 'background.paper' }}
    />
  );
}

export default MessengerFrame;
