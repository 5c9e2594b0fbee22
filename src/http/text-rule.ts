// The one rule for text that comes from outside (every string and key of a JSON body, every query
// parameter, a BR Code read from a QR image): no control character (C0, DEL, C1; so no ANSI escape
// sequence, which starts with ESC or CSI), no bidirectional override or isolate (text that displays
// other than it reads), no lone UTF-16 surrogate (PostgreSQL refuses it: 22P02). Refused, not
// stripped: a stored text is then exactly what the client sent. Tab and newline are control
// characters too: no field of this service is multi-line.
import { invalidRequest, type Refusal } from '../domain/refusal.js';

const FORBIDDEN =
  /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function kindOf(unit: number): string {
  if (unit === 0) return 'caractere nulo';
  if (unit === 0x1b || unit === 0x9b) return 'caractere de controle, início de sequência ANSI';
  if (unit <= 0x9f) return 'caractere de controle';
  if (unit >= 0xd800 && unit <= 0xdfff) return 'surrogate UTF-16 isolado';
  return 'controle bidirecional';
}

/** What is wrong with `text` under the rule ("U+001B, caractere de controle, …"), or null when it is fine. */
export function forbiddenCharacter(text: string): string | null {
  const found = FORBIDDEN.exec(text);
  if (found === null) return null;
  const unit = found[0].charCodeAt(0);
  return `U+${unit.toString(16).toUpperCase().padStart(4, '0')}, ${kindOf(unit)}`;
}

/** The refusal `invalid_request` (400) for a text with `problem` (forbiddenCharacter's answer) in the field `where`. */
export function textRefusal(problem: string, where: string, param?: string): Refusal {
  return invalidRequest(
    `${where} contém caractere não permitido (${problem}); caracteres de controle, sequências ANSI, controles bidirecionais e surrogates isolados são recusados`,
    param,
  );
}

/**
 * Throws the refusal `invalid_request` (400) when `text` breaks the rule; `where` names the field, e.g. "Campo /payer/name",
 * and `param` is its JSON pointer when one field is to blame.
 */
export function checkText(text: string, where: string, param?: string): void {
  const problem = forbiddenCharacter(text);
  if (problem !== null) throw textRefusal(problem, where, param);
}
