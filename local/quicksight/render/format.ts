/** Number and date formatting of the dashboards (en-US, USD). */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MINUS = '\u2212';

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function integer(n: number): string {
  return integerFormat.format(n).replace('-', MINUS);
}

/** $12.4M, $845K, $920. */
export function currency(n: number): string {
  const sign = n < 0 ? MINUS : '';
  const a = Math.abs(n);
  if (a >= 1e9) return `${sign}$${(a / 1e9).toFixed(2)}B`;
  if (a >= 1e6) return `${sign}$${(a / 1e6).toFixed(a >= 1e8 ? 0 : 1)}M`;
  if (a >= 1e3) return `${sign}$${(a / 1e3).toFixed(a >= 1e5 ? 0 : 1)}K`;
  return `${sign}$${a.toFixed(0)}`;
}

export function currencyFull(n: number): string {
  return `${n < 0 ? MINUS : ''}$${integerFormat.format(Math.abs(n))}`;
}

export function percent(ratio: number, digits = 1): string {
  return `${(ratio * 100).toFixed(digits).replace('-', MINUS)}%`;
}

export function signedPercent(ratio: number): string {
  const value = (ratio * 100).toFixed(1);
  return ratio >= 0 ? `+${value}%` : `${MINUS}${value.slice(1)}%`;
}

/** Difference of two rates in percentage points. */
export function signedPoints(difference: number): string {
  const value = (difference * 100).toFixed(1);
  return difference >= 0 ? `+${value} pts` : `${MINUS}${value.slice(1)} pts`;
}

export function days(n: number): string {
  return `${n.toFixed(0)} days`;
}

/** '2025-03' -> 'Mar 2025'. */
export function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  return `${MONTHS[Number(m) - 1] ?? m} ${year}`;
}

/** '2025-03' -> 'Mar'. */
export function monthShort(month: string): string {
  return MONTHS[Number(month.split('-')[1]) - 1] ?? month;
}

export function periodLabel(months: readonly string[]): string {
  const first = months[0];
  const last = months[months.length - 1];
  return first && last ? `${monthLabel(first)} \u2013 ${monthLabel(last)}` : '';
}
