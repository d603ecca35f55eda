/**
 * A defined resource's list on a phone, where its table would scroll sideways: a card per record,
 * its title field on top and its key fields (extras.tsx names them) each with its label. A record
 * one may edit opens from its title.
 */
import { Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { RecordContextProvider, useListContext, useTranslate, type RaRecord } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { ResourceSpec } from '../../../shared/resources/define';
import type { DefinedExtras } from './extras';

export type CardSpec = NonNullable<DefinedExtras['card']>;

function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', overflowWrap: 'anywhere' }}>{children}</Box>
    </Box>
  );
}

export function PhoneCards({
  spec,
  card,
  value,
  editable,
  empty,
}: {
  spec: ResourceSpec;
  card: CardSpec;
  /** A field's value as its column shows it (DefinedList's column()). */
  value: (name: string) => ReactNode;
  editable: boolean;
  /** Shown when the list has no records. */
  empty: ReactNode;
}) {
  const translate = useTranslate();
  const { data, isPending } = useListContext();
  const label = (name: string) =>
    translate(`resources.${spec.name}.fields.${name}`, { _: spec.fields[name]?.label ?? name });
  const shown = (name: string, record: RaRecord) => {
    const Value = card.Value?.[name];
    return Value ? <Value record={record} /> : value(name);
  };
  if (!isPending && !data?.length) return <>{empty}</>;
  return (
    <Stack component="ul" spacing={1} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label={spec.labels.many}>
      {(data ?? []).map((record: RaRecord) => (
        <RecordContextProvider key={record.id} value={record}>
          <Card component="li" variant="outlined" data-testid={`${spec.name}-card-${record.id}`}>
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Stack spacing={1}>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {editable ? (
                    <Link component={RouterLink} to={`/${spec.name}/${record.id}`} underline="hover" color="inherit">
                      {shown(card.title, record)}
                    </Link>
                  ) : (
                    shown(card.title, record)
                  )}
                </Typography>
                <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1 }}>
                  {card.fields.map((name) => (
                    <Labelled key={name} label={label(name)}>
                      {shown(name, record)}
                    </Labelled>
                  ))}
                </Box>
              </Stack>
            </CardContent>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}
