// JSON pointers (RFC 6901), how errors name the field to blame: `/split/0/percent`, `/limit`, `/id`.

/** The pointer of `steps` from the root: `jsonPointer('split', 0, 'percent')` is `/split/0/percent`. */
export function jsonPointer(...steps: Array<string | number>): string {
  return steps.map((step) => `/${String(step).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The steps of a pointer, unescaped: `/payer/name` is `['payer', 'name']`. */
export function pointerSteps(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
}
