// Readable tables for people; `--json` prints the admin API's `data` as it came.

type Scalar = string | number | boolean | null;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length ? value.map(cell).join(', ') : '-';
  return String(value as Scalar);
}

/** `{fees: {charge: {fixed: 1}}}` → `[['fees.charge.fixed', 1]]`. */
function flatten(value: Record<string, unknown>, prefix = ''): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([key, item]) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? flatten(item as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, item] as [string, unknown]],
  );
}

function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((text, i) => (i === row.length - 1 ? text : text.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** One object as a two-column table; a list of objects as one row each. */
export function table(data: unknown): string {
  if (Array.isArray(data)) {
    if (data.length === 0) return '(none)';
    const rows = data.map((item) => flatten(item as Record<string, unknown>));
    const headers = [...new Set(rows.flatMap((row) => row.map(([key]) => key)))];
    return columns([headers, ...rows.map((row) => headers.map((header) => cell(row.find(([key]) => key === header)?.[1])))]);
  }
  if (data !== null && typeof data === 'object')
    return columns(flatten(data as Record<string, unknown>).map(([key, value]) => [key, cell(value)]));
  return cell(data);
}

export function json(data: unknown): string {
  return JSON.stringify(data, null, 2);
}

/** Renders an answer holding a secret that the admin API shows only once. */
export const shownOnce = (secret: string) => (data: unknown) => `${table(data)}\n\nStore the ${secret} now: it is shown only this once.`;
