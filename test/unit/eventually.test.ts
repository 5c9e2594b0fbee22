import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';

describe('eventually', () => {
  it('retries "not yet" (undefined, false) and returns the first answer', async () => {
    const answers = [undefined, false, 'done'];
    let calls = 0;
    expect(await eventually(() => answers[calls++], 5_000, 1)).toBe('done');
    expect(calls).toBe(3);
  });

  it('fails at once on a probe that throws: a wrong answer is not retried away', async () => {
    let calls = 0;
    const wrong = eventually(
      () => {
        calls += 1;
        throw new Error('500 Internal Server Error');
      },
      5_000,
      1,
    );
    await expect(wrong).rejects.toThrow('500 Internal Server Error');
    expect(calls).toBe(1);
  });

  it('fails after its timeout when the answer never comes', async () => {
    let calls = 0;
    await expect(eventually(() => (calls++, undefined), 30, 1)).rejects.toThrow('condition not met within 30 ms');
    expect(calls).toBeGreaterThan(1);
  });
});
