import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/accounts/api-keys.js';

describe('API keys', () => {
  it('are pix_live_ followed by 32 random bytes in base64url', () => {
    const key = generateApiKey();
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    const secret = key.slice(API_KEY_PREFIX.length);
    expect(secret).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never repeat', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it('are stored as the hex SHA-256 of the whole key', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('recognizes malformed keys without a database lookup', () => {
    const key = generateApiKey();
    for (const bad of [
      '',
      'pix_live_',
      key.slice(0, -1),
      `${key}x`,
      key.replace('pix_live_', 'pix_test_'),
      `${key.slice(0, -1)}=`,
      `${key.slice(0, -1)}+`,
    ]) {
      expect(isWellFormedApiKey(bad), bad).toBe(false);
    }
  });
});
