import { randomBytes } from 'node:crypto';

/** A new random identifier with a type prefix, e.g. `acc_3f9c…`. */
export function newId(prefix: 'acc' | 'key'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
