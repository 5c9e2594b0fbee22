// The token of a payer's page: 32 random bytes (256 bits) as 43 base64url characters, made when the
// charge (or recurrence) is created and stored with it. It is the page's only key: never the
// transaction id, never derived from it.
import { randomBytes } from 'node:crypto';

export const newCheckoutToken = (): string => randomBytes(32).toString('base64url');

/** What a token can look like: anything else is unknown without asking the database. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22,64}$/;

export const isCheckoutTokenShape = (text: string): boolean => TOKEN_SHAPE.test(text);
