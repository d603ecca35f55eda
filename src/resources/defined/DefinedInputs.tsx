/**
 * The create and edit form's inputs of a resource defined in one file: one input per writable
 * field, as its kind says. Labels come from the resource's translations (resources.<name>.fields).
 * A secret the server's key cannot read ("needs re-entry") is shown empty, with why.
 */
import { BooleanInput, NumberInput, SelectInput, TextInput, useRecordContext, useTranslate } from 'react-admin';
import { NEEDS_REENTRY, type FieldSpec, type ResourceSpec } from '../../../shared/resources/define';
import { useOptions } from './useOptions';

function ReferenceSelect({ source, field }: { source: string; field: Extract<FieldSpec, { kind: 'reference' }> }) {
  const { data = [], isPending } = useOptions(field.path, field.optionText);
  return (
    <SelectInput
      source={source}
      choices={data}
      isPending={isPending}
      emptyText={field.emptyText ?? ''}
      helperText={field.help ?? false}
      parse={(value) => (value === '' || value === null ? null : Number(value))}
    />
  );
}

/** A secret the server's key cannot read is shown empty, with why it must be entered again. */
function SecretInput({ name, field }: { name: string; field: FieldSpec }) {
  const translate = useTranslate();
  const needsReentry = useRecordContext()?.[name] === NEEDS_REENTRY;
  return (
    <TextInput
      source={name}
      helperText={needsReentry ? translate('app.secret.needs_reentry_hint') : (field.help ?? false)}
      format={(value) => (value === NEEDS_REENTRY ? '' : (value ?? ''))}
      type="url"
      autoComplete="off"
      fullWidth
    />
  );
}

function FieldInput({ name, field }: { name: string; field: FieldSpec }) {
  const helperText = field.help ?? false;
  switch (field.kind) {
    case 'boolean':
      return <BooleanInput source={name} defaultValue={field.default ?? false} helperText={helperText} />;
    case 'integer':
      return <NumberInput source={name} helperText={helperText} />;
    case 'reference':
      return <ReferenceSelect source={name} field={field} />;
    case 'datetime':
      return null;
    case 'secret':
      return <SecretInput name={name} field={field} />;
    default:
      return (
        <TextInput
          source={name}
          helperText={helperText}
          type={field.kind === 'url' ? 'url' : 'text'}
          autoComplete="off"
          fullWidth
        />
      );
  }
}

export function DefinedInputs({ spec }: { spec: ResourceSpec }) {
  return (
    <>
      {Object.entries(spec.fields)
        .filter(([, field]) => !field.readOnly)
        .map(([name, field]) => (
          <FieldInput key={name} name={name} field={field} />
        ))}
    </>
  );
}
