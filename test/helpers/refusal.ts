// The ApiError a piece of code throws, for unit tests that check its status, code and message.
import { ApiError } from '../../src/http/errors.js';

export function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}
