// The one error type handlers throw. The edge turns it into the spec's envelope:
// {success: false, error: {code, message, param?}, requestId}. `message` is Portuguese text for humans;
// `param`, as in Stripe's errors, is the JSON pointer of the one field to blame (`/amount`,
// `/split/0/percent`, `/limit` for a query parameter, `/id` for a path parameter), absent when no
// single field is.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
    readonly param?: string,
  ) {
    super(message);
  }

  /** The same error, blamed on the field at `param` (a JSON pointer). */
  at(param: string | undefined): ApiError {
    return new ApiError(this.status, this.code, this.message, this.headers, this.extra, param);
  }
}

/** The `error` object of the envelope. */
export function errorDetail(err: ApiError): { code: string; message: string; param?: string } {
  return { code: err.code, message: err.message, ...(err.param === undefined ? {} : { param: err.param }) };
}

export const invalidRequest = (message: string, param?: string) => new ApiError(400, 'invalid_request', message, {}, {}, param);
export const notFound = (message = 'Recurso não encontrado') => new ApiError(404, 'not_found', message);
export const operationRefused = (message: string) => new ApiError(422, 'operation_refused', message);
export const internalError = () => new ApiError(500, 'internal_error', 'Erro interno. Tente novamente com a mesma chave de idempotência.');
