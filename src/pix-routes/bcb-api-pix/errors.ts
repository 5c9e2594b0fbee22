// How a PSP call went wrong. PspUnavailable (5xx, timeout, refused or reset connection, a token that
// could not be had) is a plain error that Temporal retries; PspRejected is a 4xx answer, which each
// caller interprets (a refusal of a creation is read back first: DESIGN.md "PSP errors").

export class PspUnavailable extends Error {
  override readonly name = 'PspUnavailable';
}

/** A 4xx answer, with the standard's problem (RFC 7807) fields when the PSP sent them. */
export class PspRejected extends Error {
  override readonly name = 'PspRejected';
  constructor(
    readonly status: number,
    readonly problem: { type?: string; title?: string; detail?: string },
    what: string,
  ) {
    super(`${what}: the PSP answered ${status}${problem.title ? ` ${problem.title}` : ''}${problem.detail ? ` (${problem.detail})` : ''}`);
  }
}

/** The describing fields of a problem JSON, or of Efí's error (`nome`, `mensagem`), when `body` is one. */
export function problemOf(body: unknown): PspRejected['problem'] {
  if (typeof body !== 'object' || body === null) return {};
  const { type, title, detail, nome, mensagem } = body as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 300) : undefined);
  return { type: text(type), title: text(title) ?? text(nome), detail: text(detail) ?? text(mensagem) };
}
