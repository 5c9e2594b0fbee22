// The one error type handlers throw. The edge turns it into the spec's envelope:
// {success: false, error: {code, message}, requestId}. `message` is Portuguese text for humans.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string) => new ApiError(400, 'invalid_request', message);
export const notFound = (message = 'Recurso não encontrado') => new ApiError(404, 'not_found', message);
export const operationRefused = (message: string) => new ApiError(422, 'operation_refused', message);
export const internalError = () => new ApiError(500, 'internal_error', 'Erro interno. Tente novamente com a mesma chave de idempotência.');
