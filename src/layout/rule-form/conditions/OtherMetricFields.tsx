/** What a condition compares its metric with when it is another metric: a factor times whose metric, over which window. */
import { useTranslate } from 'react-admin';
import { withMetric, type ConditionDraft } from './conditionDraft';
import { FactorField } from './FactorField';
import { MetricSelect } from './MetricSelect';
import { ScopeSelect } from './ScopeSelect';
import { WindowFields } from './WindowFields';

type OtherMetric = ConditionDraft['other'];

export function OtherMetricFields({
  conditionName,
  other,
  errors,
  onChange,
}: {
  /** The condition's name ("Condition 2"), which the factor's accessible name starts with. */
  conditionName: string;
  other: OtherMetric;
  errors: { factor?: string; of?: string; window?: string };
  onChange: (next: OtherMetric) => void;
}) {
  const translate = useTranslate();
  return (
    <>
      <FactorField
        conditionName={conditionName}
        value={other.factor}
        error={errors.factor}
        onChange={(factor) => onChange({ ...other, factor })}
      />
      <ScopeSelect value={other.of} error={errors.of} onChange={(of) => onChange({ ...other, of })} />
      <MetricSelect
        label={translate('conditions.other_metric')}
        value={other.metric}
        onChange={(metric) => onChange(withMetric(other, metric))}
      />
      <WindowFields
        label={translate('conditions.other_window')}
        side={other}
        metric={other.metric}
        errors={{ window: errors.window }}
        onChange={(next) => onChange({ ...other, ...next })}
      />
    </>
  );
}
