/** Readable numbers for activity reasons: "$62.10", "0.45%", "3". */
const moneyFormats = new Map<string, Intl.NumberFormat>();

export function money(value: number, currency = 'USD'): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
    } catch {
      format = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
    }
    moneyFormats.set(currency, format);
  }
  return format.format(value);
}

export function percent(value: number): string {
  return `${value.toFixed(2)}%`;
}

export function count(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
