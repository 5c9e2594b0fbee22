// A secret of the routes file (client secret, private key). It never prints: JSON, util.inspect
// (what loggers and console use) and string conversion all show a placeholder; `reveal()` is the
// only way to the value, at the one place that sends it.
import { inspect } from 'node:util';

const PLACEHOLDER = '[secret]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return PLACEHOLDER;
  }

  toString(): string {
    return PLACEHOLDER;
  }

  [inspect.custom](): string {
    return PLACEHOLDER;
  }
}
