/**
 * Templates (/templates): each with how many folders follow it and how many of those override some
 * of it; a row opens the template. Those who edit rules add one.
 */
import Add from '@mui/icons-material/Add';
import { Card } from '@mui/material';
import {
  CreateButton,
  Datagrid,
  DateField,
  FunctionField,
  ListBase,
  NumberField,
  Pagination,
  TextField,
  useTranslate,
} from 'react-admin';
import type { TemplateListRow } from '../../../shared/templates';
import { ListEmpty, ListErrors, listErrorsQueryOptions, UnlessListFailed } from '../../layout/list';
import { PageTitle } from '../../layout/pageTitle';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { useNarrowScreen } from '../../layout/RowActions';
import { usePermission } from '../../providers/usePermissions';

const field = (name: string) => `resources.templates.fields.${name}`;

export default function TemplateList() {
  const translate = useTranslate();
  const phone = useNarrowScreen();
  const mayCreate = usePermission('create_update_rules');
  return (
    <ListBase
      resource="templates"
      perPage={25}
      sort={{ field: 'name', order: 'ASC' }}
      queryOptions={listErrorsQueryOptions}
    >
      <PageTitle title="resources.templates.page" />
      <PageToolbar>
        <ToolbarSpacer />
        {mayCreate ? <CreateButton label="resources.templates.add" icon={<Add />} variant="contained" /> : null}
      </PageToolbar>
      <ListErrors />
      <UnlessListFailed>
        <Card variant="outlined">
          <Datagrid
            bulkActionButtons={false}
            rowClick="edit"
            empty={<ListEmpty message="resources.templates.empty" detail={translate('resources.templates.about')} />}
          >
            <TextField source="name" label={field('name')} />
            <NumberField source="folders" label={field('folders')} />
            {phone ? null : (
              <FunctionField
                source="overriding_folders"
                label={field('overriding_folders')}
                sortable={false}
                render={(row: TemplateListRow) => String(row.overriding_folders)}
              />
            )}
            {phone ? null : <DateField source="updated_at" label={field('updated_at')} showTime />}
          </Datagrid>
        </Card>
        <Pagination rowsPerPageOptions={[25, 50, 100]} />
      </UnlessListFailed>
    </ListBase>
  );
}
