// checkoutUrl: `{PUBLIC_BASE_URL or http://localhost:PORT}/pay/{token}`. The origin is the process's
// configuration, set once at start (src/main.ts), so that every serialization of a transaction (API
// answers, webhooks and events recorded by activities) shows the same address without each caller
// carrying the configuration.

/** The settings the address depends on (PUBLIC_BASE_URL, PORT). */
interface OriginSettings {
  publicBaseUrl: string | null;
  port: number;
}

let origin = 'http://localhost:3000';

export function configureCheckoutOrigin(config: OriginSettings): void {
  origin = checkoutOrigin(config);
}

export function checkoutOrigin(config: OriginSettings): string {
  // PUBLIC_BASE_URL may name the API's /v1 (src/openapi/paths.ts); the page is beside it.
  return config.publicBaseUrl === null ? `http://localhost:${config.port}` : config.publicBaseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

export const checkoutUrlOf = (token: string): string => `${origin}/pay/${token}`;
