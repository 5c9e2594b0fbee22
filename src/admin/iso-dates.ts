// Records as the admin API shows them: a record whose fields are all public (no secret is ever part
// of it) goes out as it is, its Date fields written as ISO 8601 text.

export type WithIsoDates<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

export function withIsoDates<T extends object>(record: T): WithIsoDates<T> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  ) as WithIsoDates<T>;
}
