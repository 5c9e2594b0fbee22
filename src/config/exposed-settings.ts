// Settings that open the engine to a network, checked against what they guard: a secret that anyone on
// that network could guess (short, or a value printed in this repository) and a plain-HTTP listener
// reachable from other machines. What only this machine reaches is allowed with a warning, so a local
// run or a test with a short ADMIN_TOKEN keeps working; what other machines reach is refused.
import { isIP } from 'node:net';

export const MIN_SECRET_LENGTH = 32;

/**
 * Secrets printed in this repository as defaults or examples (docker-compose.yml, README, the tests'
 * helpers): whoever reads the repository knows them. Compared case-insensitively.
 */
export const PUBLISHED_SECRETS = ['change-me', 'change-me-codec-ui-secret-0000', 'secret', 'test-admin-token'];

/** What is wrong with `value` as a secret anyone on the network can try, or null. Never names the value. */
export function weakness(value: string): string | null {
  if (PUBLISHED_SECRETS.includes(value.toLowerCase())) return 'is a value published in the repository';
  if (value.length < MIN_SECRET_LENGTH) return `is shorter than ${MIN_SECRET_LENGTH} characters`;
  return null;
}

/** A host only this machine reaches: localhost, 127.0.0.0/8, ::1 (or its IPv4-mapped form). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^(0*:)*:?ffff:127\./.test(bare) || /^(0+:){7}0*1$/.test(bare);
  return false;
}
