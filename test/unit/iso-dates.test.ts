import { describe, expect, it } from 'vitest';
import { withIsoDates } from '../../src/admin/iso-dates.js';

describe('withIsoDates', () => {
  it('writes Date fields as ISO 8601 text and keeps every other field, null dates and field order', () => {
    const record = {
      id: 'key_1',
      createdAt: new Date('2025-06-01T12:00:00.000Z'),
      revokedAt: null,
      permissions: ['balance:read'],
      count: 0,
    };
    const shown = withIsoDates(record);
    expect(shown).toEqual({ id: 'key_1', createdAt: '2025-06-01T12:00:00.000Z', revokedAt: null, permissions: ['balance:read'], count: 0 });
    expect(Object.keys(shown)).toEqual(Object.keys(record));
  });
});
