/** The trash's toolbar: back to General, the title, and the search. */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { IconButton, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { SearchBox } from '../../layout/SearchBox';

export function TrashToolbar({ search, onSearch }: { search: string; onSearch: (text: string) => void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <>
      <Tooltip title={translate('rules.editor.back')}>
        <IconButton aria-label={translate('rules.editor.back')} onClick={() => navigate('/')}>
          <ArrowBackIcon />
        </IconButton>
      </Tooltip>
      <Typography variant="h6" component="h1" sx={{ mr: 1 }}>
        {translate('rules.trash.title')}
      </Typography>
      <SearchBox value={search} onSearch={onSearch} label={translate('rules.trash.search')} />
    </>
  );
}
