/**
 * How the screens write money and percentages (docs/screens.md): money with two decimals in the ad
 * account's currency, a percent with two decimals and its sign, N/A for anything missing. Pure.
 */

export const NOT_AVAILABLE = 'N/A';

const present = (value: number | string | null | undefined): value is number | string =>
  value !== null && value !== undefined && value !== '' && Number.isFinite(Number(value));

/** 1234.5 → '$1,234.50' (the ad account's currency; dollars when unknown). */
export function formatMoney(value: number | string | null | undefined, currency = 'USD'): string {
  if (!present(value)) return NOT_AVAILABLE;
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(Number(value));
  } catch {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(value));
  }
}

/** 1.4896 → '1.49%'. */
export function formatPercent(value: number | string | null | undefined): string {
  if (!present(value)) return NOT_AVAILABLE;
  return `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value))}%`;
}
