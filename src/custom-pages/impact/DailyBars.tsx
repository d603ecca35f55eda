/**
 * A small bar chart of days (SVG, no chart library: one series of bars, a part of each bar
 * highlighted, a count over it), with a legend saying what the bars, the highlighted part and the
 * count are. Each bar has a title for pointers and the whole a text summary for screen readers
 * (its accessible name; the bars say it to everyone else).
 */
import { Box, Stack, Typography, useTheme } from '@mui/material';
import { formatDayShort } from '../../layout/dateFormat';

export interface DayBar {
  date: string;
  /** The bar's height. */
  value: number;
  /** The part of the bar drawn in the warning colour (0 when none). */
  part: number;
  /** Written over the bar (e.g. the pauses of the day); empty for none. */
  label: string;
  title: string;
}

/** What each mark of the chart stands for; a part or a count without a label is left out of the legend. */
export interface BarsLegend {
  bar: string;
  part?: string;
  count?: string;
}

const HEIGHT = 140;
const LABEL_ROOM = 16;

function Legend({ legend }: { legend: BarsLegend }) {
  const theme = useTheme();
  const swatch = (color: string) => (
    <Box component="span" sx={{ display: 'inline-block', width: 12, height: 12, borderRadius: 0.5, bgcolor: color }} />
  );
  const items = [
    { key: 'bar', mark: swatch(theme.palette.primary.main), text: legend.bar },
    ...(legend.part ? [{ key: 'part', mark: swatch(theme.palette.warning.main), text: legend.part }] : []),
    // The count is written over each bar: its legend item is words alone.
    ...(legend.count ? [{ key: 'count', mark: null, text: legend.count }] : []),
  ];
  return (
    <Stack
      component="ul"
      direction="row"
      useFlexGap
      spacing={2}
      sx={{ flexWrap: 'wrap', m: 0, p: 0, listStyle: 'none' }}
    >
      {items.map((item) => (
        <Stack component="li" key={item.key} direction="row" spacing={0.75} alignItems="center">
          {item.mark ? (
            <Box component="span" aria-hidden sx={{ display: 'inline-flex' }}>
              {item.mark}
            </Box>
          ) : null}
          <Typography variant="caption" color="text.secondary">
            {item.text}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}

export function DailyBars({ days, summary, legend }: { days: DayBar[]; summary: string; legend: BarsLegend }) {
  const theme = useTheme();
  const max = Math.max(1, ...days.map((d) => d.value));
  const width = Math.max(280, days.length * 22);
  const step = width / Math.max(1, days.length);
  const barWidth = Math.max(4, step * 0.7);
  const scale = (v: number) => (v / max) * (HEIGHT - LABEL_ROOM - 18);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <svg
        role="img"
        aria-label={summary}
        width="100%"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        style={{ minWidth: 280, maxHeight: 180 }}
      >
        <line x1={0} x2={width} y1={HEIGHT - 18} y2={HEIGHT - 18} stroke={theme.palette.divider} />
        {days.map((day, i) => {
          const x = i * step + (step - barWidth) / 2;
          const h = scale(day.value);
          const part = scale(Math.min(day.part, day.value));
          const base = HEIGHT - 18;
          return (
            <g key={day.date}>
              <title>{day.title}</title>
              <rect x={x} y={base - h} width={barWidth} height={h} fill={theme.palette.primary.main} rx={2} />
              {part > 0 ? (
                <rect x={x} y={base - part} width={barWidth} height={part} fill={theme.palette.warning.main} rx={2} />
              ) : null}
              {day.label ? (
                <text
                  x={x + barWidth / 2}
                  y={base - h - 4}
                  fontSize={10}
                  textAnchor="middle"
                  fill={theme.palette.text.primary}
                >
                  {day.label}
                </text>
              ) : null}
              {i % Math.ceil(days.length / 10) === 0 ? (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - 4}
                  fontSize={9}
                  textAnchor="middle"
                  fill={theme.palette.text.secondary}
                >
                  {formatDayShort(day.date)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <Legend legend={legend} />
    </Box>
  );
}

/** Money in the account's currency ("$1,234.50"); a plain number when the currencies are mixed. */
export function formatMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    return value.toFixed(2);
  }
}

/** Labelled numbers in a row that wraps on a phone. */
export function Totals({ items }: { items: { label: string; value: string; warn?: boolean }[] }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 1 }}>
      {items.map((item) => (
        <Box key={item.label} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
          <Typography variant="caption" color="text.secondary" component="div">
            {item.label}
          </Typography>
          <Typography variant="h6" component="div" color={item.warn ? 'warning.main' : undefined}>
            {item.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
