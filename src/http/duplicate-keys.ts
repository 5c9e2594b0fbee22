// A key repeated in one object of a JSON body is refused: JSON.parse keeps the last one, so
// `{"amount":1,"amount":5000}` would mean 5000 to the engine and 1 to whatever read the body before it
// (a proxy, a log, a reviewer). The raw text is scanned, since the parsed value has already lost the
// first occurrence; keys are compared decoded (`\u0061mount` is `amount`), at every level, in one pass
// with an explicit stack (no recursion however deep the text), and the pointer is built only for the
// key refused.
import { invalidRequest } from './errors.js';
import { jsonPointer } from '../json/pointer.js';

/** An object or array open at the scan's position. */
interface Frame {
  /** The object's keys so far; null for an array. */
  keys: Set<string> | null;
  /** The object's last key, or the array's current index: the step of a child opened now. */
  step: string | number;
  /** This container's step under its parent. */
  stepInParent: string | number;
}

/**
 * The index of the quote closing the string opened at `open`: the next quote after an even run of
 * backslashes (found by indexOf, far faster than a loop over each character). raw.length if none.
 */
function closingQuote(raw: string, open: number): number {
  let quote = raw.indexOf('"', open + 1);
  for (;;) {
    if (quote === -1) return raw.length;
    let backslashes = 0;
    while (raw.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = raw.indexOf('"', quote + 1);
  }
}

function pointerOf(stack: Frame[], key: string): string {
  return jsonPointer(...stack.slice(1).map((frame) => frame.stepInParent), key);
}

/**
 * Throws a 400 `invalid_request` naming, by JSON pointer, the first key that appears twice in the same
 * object. `raw` must be JSON that JSON.parse accepted, its keys already checked by the text rule (the
 * message repeats the key).
 */
export function checkDuplicateKeys(raw: string): void {
  const stack: Frame[] = [];
  let top: Frame | undefined;
  let expectingKey = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) {
      const open = i;
      i = closingQuote(raw, open);
      if (!expectingKey) continue;
      const text = raw.slice(open + 1, i);
      const key = text.includes('\\') ? (JSON.parse(`"${text}"`) as string) : text;
      if (top!.keys!.has(key)) {
        const pointer = pointerOf(stack, key);
        throw invalidRequest(`Campo ${pointer} repetido no corpo: cada campo pode aparecer uma só vez em um objeto`, pointer);
      }
      top!.keys!.add(key);
      top!.step = key;
      expectingKey = false;
    } else if (c === 0x7b || c === 0x5b) {
      top = { keys: c === 0x7b ? new Set() : null, step: 0, stepInParent: top?.step ?? '' };
      stack.push(top);
      expectingKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      top = stack[stack.length - 1];
      expectingKey = false;
    } else if (c === 0x2c && top !== undefined) {
      if (top.keys !== null) expectingKey = true;
      else top.step = (top.step as number) + 1;
    }
  }
}
