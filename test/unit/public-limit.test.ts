import { describe, expect, it } from 'vitest';
import { IpWindowLimiter } from '../../src/api/public-limit.js';
import { refusal } from '../helpers/refusal.js';

describe('per-IP window limiter of the public routes', () => {
  it('allows `limit` requests per IP in a window that starts at its first request, then refuses with the spec 429', () => {
    let now = 1_000_000;
    const limiter = new IpWindowLimiter(3, 60_000, () => now);
    expect(limiter.take('192.0.2.1')).toEqual({ limit: 3, remaining: 2, resetSeconds: 60 });
    now += 20_000;
    expect(limiter.take('192.0.2.1')).toEqual({ limit: 3, remaining: 1, resetSeconds: 40 });
    expect(limiter.take('192.0.2.1').remaining).toBe(0);
    const refused = refusal(() => limiter.take('192.0.2.1'));
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', extra: { code: 'rate_limit_exceeded', retryAfter: 40 } });
    expect(refused.headers).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '40', 'Retry-After': '40' });
    expect(limiter.take('192.0.2.2').remaining).toBe(2);
  });

  it('opens a new window once the previous one has ended', () => {
    let now = 0;
    const limiter = new IpWindowLimiter(1, 60_000, () => now);
    limiter.take('192.0.2.1');
    now = 59_999;
    expect(refusal(() => limiter.take('192.0.2.1')).extra.retryAfter).toBe(1);
    now = 60_000;
    expect(limiter.take('192.0.2.1')).toEqual({ limit: 1, remaining: 0, resetSeconds: 60 });
  });

  it('forgets ended windows instead of growing without bound', () => {
    let now = 0;
    const limiter = new IpWindowLimiter(10, 1_000, () => now);
    for (let i = 0; i < 50_000; i += 1) limiter.take(`ip-${i}`);
    expect(limiter.trackedIps).toBe(50_000);
    now = 1_000;
    limiter.take('late');
    expect(limiter.trackedIps).toBe(1);
    for (let i = 0; i < 50_010; i += 1) limiter.take(`flood-${i}`);
    expect(limiter.trackedIps).toBeLessThanOrEqual(50_000);
  });
});
