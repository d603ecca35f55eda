/**
 * One condition of the Conditions card: metric, window (Last N days with its N; show-up metrics
 * fixed at Lifetime), comparison, and a number ($ or % by the metric's kind) or another metric
 * times a factor — whose (this object, its ad set, its campaign, the account), which, over which
 * window. The fields wrap, so a phone shows the row as a few lines.
 */
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { IconButton, Stack, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { AgainstSelect } from './AgainstSelect';
import { ComparisonSelect } from './ComparisonSelect';
import { withMetric, type ConditionDraft, type FieldErrors } from './conditionDraft';
import { ConditionValueField } from './ConditionValueField';
import { MetricSelect } from './MetricSelect';
import { OtherMetricFields } from './OtherMetricFields';
import { WindowFields } from './WindowFields';

function RemoveConditionButton({ number, onRemove }: { number: number; onRemove: () => void }) {
  const translate = useTranslate();
  const label = translate('conditions.remove_condition', { n: number });
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={onRemove}>
        <DeleteOutlineIcon />
      </IconButton>
    </Tooltip>
  );
}

export function ConditionRow({
  condition,
  number,
  path,
  errors,
  onChange,
  onRemove,
}: {
  condition: ConditionDraft;
  /** Its number in the card, counted from 1, for its name ("Condition 2"). */
  number: number;
  /** "conditions.conditions.0": where the server's errors about it are keyed. */
  path: string;
  errors: FieldErrors;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const translate = useTranslate();
  const c = condition;
  const at = (field: string) => errors[`${path}.${field}`];
  const name = translate('conditions.condition_label', { n: number });
  return (
    <Stack
      role="group"
      aria-label={name}
      direction="row"
      spacing={1}
      useFlexGap
      flexWrap="wrap"
      alignItems="flex-start"
      data-testid={`condition-${number}`}
    >
      <MetricSelect
        label={translate('conditions.metric')}
        value={c.metric}
        onChange={(metric) => onChange(withMetric(c, metric))}
      />
      <WindowFields
        label={translate('conditions.window')}
        side={c}
        metric={c.metric}
        errors={{ window: at('window') }}
        onChange={(next) => onChange({ ...c, ...next })}
      />
      <ComparisonSelect value={c.op} error={at('op')} onChange={(op) => onChange({ ...c, op })} />
      <AgainstSelect value={c.against} onChange={(against) => onChange({ ...c, against })} />
      {c.against === 'number' ? (
        <ConditionValueField
          conditionName={name}
          metric={c.metric}
          value={c.value}
          error={at('value') ?? errors[path]}
          onChange={(value) => onChange({ ...c, value })}
        />
      ) : (
        <OtherMetricFields
          conditionName={name}
          other={c.other}
          errors={{
            factor: at('compare_to.factor'),
            of: at('compare_to.of') ?? at('compare_to'),
            window: at('compare_to.window'),
          }}
          onChange={(other) => onChange({ ...c, other })}
        />
      )}
      <RemoveConditionButton number={number} onRemove={onRemove} />
    </Stack>
  );
}
