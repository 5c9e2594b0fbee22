// JSON pointers (RFC 6901), how errors name the field to blame: `/split/0/percent`, `/limit`, `/id`.

/** The pointer of `steps` from the root: `jsonPointer('split', 0, 'percent')` is `/split/0/percent`. */
export function jsonPointer(...steps: Array<string | number>): string {
  return steps.map((step) => `/${String(step).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The steps of a pointer, unescaped: `/payer/name` is `['payer', 'name']`. */
export function pointerSteps(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Where an error points; a `required` error points at the missing property itself. */
export function errorPath(error: { keyword: string; instancePath: string; params: object }): string {
  if (error.keyword === 'required') {
    const missing = (error.params as { requiredProperties?: string[] }).requiredProperties?.[0];
    if (missing) return `${error.instancePath}/${missing}`;
  }
  return error.instancePath;
}

/** How a body field is named in messages: `fees.charge.fixed`, `permissions[1]`. */
export function fieldLabel(steps: string[]): string {
  return steps.reduce((label, step) => (/^\d+$/.test(step) ? `${label}[${step}]` : label ? `${label}.${step}` : step), '');
}
