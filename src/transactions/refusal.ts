// A refusal of the accept step as it travels through Temporal. Pure: the workflow bundle imports it.

/** What the API answers to every request that joins a refused operation. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** The accept step failed on data PostgreSQL would not store (a permanent error): nothing was kept. */
export const UNPROCESSABLE: Refusal = {
  status: 400,
  code: 'invalid_request',
  message: 'Os dados da operação não puderam ser processados; nada foi criado. Corrija o conteúdo e tente novamente',
};
