/**
 * The list view of a resource defined in one file: its list fields as columns, a search when the
 * definition names searched fields, Create for those who may create, rows that open the edit form
 * for those who may edit. A secret the server's key cannot read shows "needs re-entry". A resource
 * may add one column of its own (extras.tsx), and a card per record on a phone (PhoneCards.tsx).
 */
import { Card, Chip, Tooltip } from '@mui/material';
import {
  BooleanField,
  CreateButton,
  Datagrid,
  FunctionField,
  ListBase,
  NumberField,
  Pagination,
  TextField,
  useTranslate,
} from 'react-admin';
import { NEEDS_REENTRY, type FieldSpec, type ResourceSpec } from '../../../shared/resources/define';
import { PageTitle } from '../../layout/pageTitle';
import { useNarrowScreen } from '../../layout/RowActions';
import { usePermission } from '../../providers/usePermissions';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import {
  DateTimeField,
  ListEmpty,
  ListErrors,
  ListSearchBox,
  listErrorsQueryOptions,
  UnlessListFailed,
} from '../../layout/list';
import { definedExtras } from './extras';
import { PhoneCards } from './PhoneCards';
import { useOptions } from './useOptions';

function ReferenceName({ value, field }: { value: unknown; field: Extract<FieldSpec, { kind: 'reference' }> }) {
  const { data = [] } = useOptions(field.path, field.optionText);
  if (value === null || value === undefined) return <>{field.emptyText ?? ''}</>;
  return <>{data.find((option) => option.id === value)?.name ?? `#${String(value)}`}</>;
}

/** A secret as the server answers it: masked, or flagged when the server's key cannot read it. */
function SecretValue({ value }: { value: unknown }) {
  const translate = useTranslate();
  if (value !== NEEDS_REENTRY) return <>{typeof value === 'string' && value ? value : '—'}</>;
  return (
    <Tooltip title={translate('app.secret.needs_reentry_hint')}>
      <Chip size="small" color="warning" variant="outlined" label={translate('app.secret.needs_reentry')} />
    </Tooltip>
  );
}

function column(name: string, field: FieldSpec) {
  const common = { source: name, sortable: Boolean(field.sortable) };
  switch (field.kind) {
    case 'boolean':
      return <BooleanField key={name} {...common} />;
    case 'integer':
      return <NumberField key={name} {...common} />;
    case 'datetime':
      return <DateTimeField key={name} {...common} />;
    case 'reference':
      return (
        <FunctionField
          key={name}
          {...common}
          render={(record) => <ReferenceName value={record[name]} field={field} />}
        />
      );
    case 'secret':
      return <FunctionField key={name} {...common} render={(record) => <SecretValue value={record[name]} />} />;
    default:
      return <TextField key={name} {...common} emptyText="—" />;
  }
}

export function DefinedList({ spec }: { spec: ResourceSpec }) {
  const translate = useTranslate();
  const canEdit = usePermission({ resource: spec.name, action: 'edit' });
  const ordering = spec.list?.ordering ?? spec.idField ?? 'id';
  const extraColumn = definedExtras[spec.name]?.column;
  const card = definedExtras[spec.name]?.card;
  // On a phone a resource's own column stays in view: beside it only the first field (the rest are in the form).
  const narrow = useNarrowScreen();
  const listed = Object.entries(spec.fields).filter(([, field]) => field.list);
  const shown = narrow && extraColumn ? listed.slice(0, 1) : listed;
  const empty = (
    <ListEmpty
      message="app.list.none_yet"
      messageArgs={{ items: spec.labels.many.toLowerCase() }}
      detail={spec.about}
    />
  );
  return (
    <ListBase
      perPage={Math.min(spec.list?.perPage ?? 25, 100)}
      sort={{ field: ordering.replace(/^-/, ''), order: ordering.startsWith('-') ? 'DESC' : 'ASC' }}
      queryOptions={listErrorsQueryOptions}
    >
      <PageTitle title={`resources.${spec.name}.page`} />
      <PageToolbar>
        {spec.search?.length ? <ListSearchBox placeholder={translate(`resources.${spec.name}.search`)} /> : null}
        <ToolbarSpacer />
        {spec.access.change ? <CreateButton variant="contained" /> : null}
      </PageToolbar>
      <ListErrors />
      <UnlessListFailed>
        {narrow && card ? (
          <PhoneCards
            spec={spec}
            card={card}
            empty={empty}
            editable={Boolean(spec.access.change && canEdit)}
            value={(name) => (spec.fields[name] ? column(name, spec.fields[name]) : null)}
          />
        ) : (
          <Card variant="outlined">
            <Datagrid bulkActionButtons={false} rowClick={spec.access.change && canEdit ? 'edit' : false} empty={empty}>
              {shown.map(([name, field]) => column(name, field))}
              {extraColumn ? (
                <FunctionField
                  label={extraColumn.label}
                  sortable={false}
                  render={(record) => <extraColumn.Cell record={record} />}
                />
              ) : null}
            </Datagrid>
          </Card>
        )}
        <Pagination rowsPerPageOptions={[10, 25, 50, 100]} />
      </UnlessListFailed>
    </ListBase>
  );
}
