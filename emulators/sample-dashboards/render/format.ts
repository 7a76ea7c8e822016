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

/** A change with its sign, rounded first so that a tiny negative change reads 0.0, not −0.0. */
function signed(value: number, digits: number): string {
  const rounded = Number(value.toFixed(digits));
  if (rounded === 0) return (0).toFixed(digits);
  return `${rounded > 0 ? '+' : MINUS}${Math.abs(rounded).toFixed(digits)}`;
}

export function signedPercent(ratio: number): string {
  return `${signed(ratio * 100, 1)}%`;
}

/** Difference of two rates in percentage points. */
export function signedPoints(difference: number): string {
  return `${signed(difference * 100, 1)} pts`;
}

export function signedDays(difference: number): string {
  return `${signed(difference, 1)} days`;
}

/** Whether a change rounds to an increase, a decrease or nothing at the shown precision. */
export function direction(change: number, digits = 3): 'up' | 'down' | undefined {
  const rounded = Number(change.toFixed(digits));
  return rounded > 0 ? 'up' : rounded < 0 ? 'down' : undefined;
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
