// What the API answers for the refusal a piece of code throws (the core's Refusal, given its status by
// the edge's table, or an edge's own ApiError), for unit tests that check its status, code and message.
import { answerOf, type ApiError } from '../../src/http/errors.js';

export function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    const answer = answerOf(err);
    if (answer) return answer;
    throw err;
  }
  throw new Error('expected a refusal');
}
