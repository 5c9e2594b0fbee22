import { createHash } from 'node:crypto';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { describe, expect, it } from 'vitest';
import { CNPJ, CPF, createAccount, createKey } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { ADMIN_TOKEN, admin, http, startStack } from '../helpers/stack.js';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The JSON pointer of a field as messages name it: `fees.charge.fixed` → `/fees/charge/fixed`, `permissions[1]` → `/permissions/1`. */
const pointerOf = (field: string) =>
  `/${field
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .join('/')}`;

/** A 400 invalid_request whose message names `field` and whose `param` points at it (`param` null: no single field to blame). */
function expectInvalid(res: { status: number; body: any }, field: string, param: string | null = pointerOf(field)) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const error = { code: 'invalid_request', message: expect.any(String), ...(param === null ? {} : { param }) };
  expect(res.body, field).toEqual({ success: false, error, requestId: expect.stringMatching(REQUEST_ID) });
  expect(res.body.error.message).toContain(field);
}

describe('admin API: accounts and API keys', () => {
  const live = liveStack();

  let made = 0;
  const newAccount = (extra: Record<string, unknown> = {}) => ({
    name: 'Padaria Central',
    document: CPF.valid,
    email: `contato${++made}@padaria.example`,
    ...extra,
  });
  const accountCount = async () => Number((await live.sql<{ n: bigint }[]>`select count(*) as n from accounts`)[0]!.n);

  describe('the admin token', () => {
    it('refuses a missing, malformed or wrong token with 401 unauthorized and does nothing', async () => {
      const before = await accountCount();
      const attempts: Array<Record<string, string>> = [
        {},
        { authorization: ADMIN_TOKEN },
        { authorization: `Basic ${ADMIN_TOKEN}` },
        { authorization: 'Bearer wrong-token' },
        { authorization: `Bearer ${ADMIN_TOKEN}x` },
      ];
      for (const headers of attempts) {
        const res = await http('POST', `${live.stack.adminUrl}/accounts`, { body: newAccount(), headers });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          success: false,
          error: { code: 'unauthorized', message: expect.any(String) },
          requestId: expect.stringMatching(REQUEST_ID),
        });
      }
      expect(await accountCount()).toBe(before);
    });

    it('refuses every request when ADMIN_TOKEN is not configured', async () => {
      const bare = await startStack({ env: { ADMIN_TOKEN: '' } });
      try {
        for (const token of [undefined, ADMIN_TOKEN, '']) {
          const res = await http('GET', `${bare.adminUrl}/accounts/acc_x`, { token });
          expect(res.status).toBe(401);
          expect(res.body.error.code).toBe('unauthorized');
        }
      } finally {
        await bare.stop();
      }
    });
  });

  describe('accounts', () => {
    it('creates an account with the spec defaults', async () => {
      const body = newAccount();
      const res = await admin(live.stack, 'POST', '/accounts', body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(/^acc_[0-9a-f]{24}$/),
          name: 'Padaria Central',
          document: CPF.validDigits,
          email: body.email,
          kycStatus: 'pending',
          status: 'active',
          withdrawalsBlocked: false,
          pixReceivingEnabled: true,
          fees: { charge: { fixed: 0, percent: 0 }, transfer: { fixed: 0, percent: 0 } },
          limits: { chargeMin: 1, chargeMax: 10000, transferMin: 3 },
          route: 'simulator',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
        requestId: expect.stringMatching(REQUEST_ID),
      });
    });

    it('accepts CNPJ, alphanumeric CNPJ, KYC, fees and route at creation', async () => {
      const fees = { charge: { fixed: 0.5, percent: 1.99 }, transfer: { fixed: 2, percent: 0.0125 } };
      const res = await admin(
        live.stack,
        'POST',
        '/accounts',
        newAccount({ document: CNPJ.alphanumeric, kycStatus: 'approved', fees, route: 'simulator' }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ document: '12ABC34501DE35', kycStatus: 'approved', fees, route: 'simulator' });
      const numeric = await admin(live.stack, 'POST', '/accounts', newAccount({ document: CNPJ.valid }));
      expect(numeric.body.data.document).toBe(CNPJ.validDigits);
    });

    it('refuses invalid input with 400 invalid_request naming the field, creating nothing', async () => {
      const before = await accountCount();
      const cases: Array<[unknown, string, (string | null)?]> = [
        [newAccount({ name: '' }), 'name'],
        [newAccount({ name: 42 }), 'name'],
        [{ document: CPF.valid, email: 'a@b.example' }, 'name'],
        [newAccount({ document: CPF.invalid }), 'document'],
        [newAccount({ document: '123' }), 'document'],
        [newAccount({ document: undefined }), 'document'],
        [newAccount({ email: 'not-an-email' }), 'email'],
        [newAccount({ kycStatus: 'done' }), 'kycStatus'],
        [newAccount({ status: 'closed' }), 'status'],
        [newAccount({ fees: { charge: { fixed: 0.001, percent: 0 } } }), 'fees.charge.fixed'],
        [newAccount({ fees: { charge: { fixed: -1, percent: 0 } } }), 'fees.charge.fixed'],
        [newAccount({ fees: { transfer: { fixed: 1, percent: 100 } } }), 'fees.transfer.percent'],
        [newAccount({ fees: { transfer: { fixed: 1, percent: 1.23456 } } }), 'fees.transfer.percent'],
        [newAccount({ fees: { transfer: { fixed: 1, pct: 1 } } }), 'fees.transfer.pct'],
        [newAccount({ fees: [] }), 'fees'],
        [newAccount({ limits: { chargeMin: 0 } }), 'limits.chargeMin'],
        [newAccount({ limits: { chargeMin: 50, chargeMax: 20 } }), 'limits.chargeMin'],
        // A BR Code's amount field holds at most 9999999999.99.
        [newAccount({ limits: { chargeMax: 10_000_000_000 } }), 'limits.chargeMax'],
        [newAccount({ limits: { chargeMin: 10_000_000_000, chargeMax: 10_000_000_000 } }), 'limits.chargeMin'],
        [newAccount({ route: 'nowhere' }), 'route'],
        [newAccount({ kyc_status: 'approved' }), 'kyc_status'],
        [[newAccount()], 'corpo', null],
      ];
      for (const [body, field, param] of cases) expectInvalid(await admin(live.stack, 'POST', '/accounts', body), field, param);
      expect(await accountCount()).toBe(before);
    });

    it('refuses a second account with the document or the e-mail of another (409 duplicate_account) unless allowDuplicate is true', async () => {
      const first = await createAccount(live.stack, { document: CPF.other, email: 'Financeiro@Mercearia.example' });
      const before = await accountCount();
      const sameDocument = await admin(live.stack, 'POST', '/accounts', newAccount({ document: '111.444.777-35' }));
      const sameEmail = await admin(
        live.stack,
        'POST',
        '/accounts',
        newAccount({ document: generateCnpj(), email: 'financeiro@MERCEARIA.example' }),
      );
      for (const [res, field] of [
        [sameDocument, 'documento'],
        [sameEmail, 'e-mail'],
      ] as const) {
        expect(res.status, res.text).toBe(409);
        expect(res.body).toEqual({
          success: false,
          error: { code: 'duplicate_account', message: expect.stringContaining(field) },
          requestId: expect.stringMatching(REQUEST_ID),
        });
        expect(res.body.error.message).toContain(first.id);
        expect(res.body.error.message).toContain('allowDuplicate');
      }
      expect(await accountCount()).toBe(before);

      expectInvalid(
        await admin(live.stack, 'POST', '/accounts', newAccount({ document: CPF.other, allowDuplicate: 'yes' })),
        'allowDuplicate',
      );
      const allowed = await admin(
        live.stack,
        'POST',
        '/accounts',
        newAccount({ document: CPF.other, email: 'financeiro@mercearia.example', allowDuplicate: true }),
      );
      expect(allowed.status, allowed.text).toBe(201);
      expect(allowed.body.data).toMatchObject({ document: CPF.other, email: 'financeiro@mercearia.example' });
      // The first account still holds the identity: a third one without the flag is refused.
      expect((await admin(live.stack, 'POST', '/accounts', newAccount({ document: CPF.other }))).status).toBe(409);
    });

    it('keeps one account per document when two creations race', async () => {
      const body = newAccount({ document: generateCnpj() });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => admin(live.stack, 'POST', '/accounts', { ...body, email: `corrida${++made}@padaria.example` })),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    });

    it('shows an account with its settings and a zero balance', async () => {
      const created = await createAccount(live.stack);
      const res = await admin(live.stack, 'GET', `/accounts/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...created, balance: { currency: 'BRL', available: 0, reserved: 0 } });
    });

    it('answers 404 not_found for an unknown account on every account route', async () => {
      for (const [method, path, body] of [
        ['GET', '/accounts/acc_unknown', undefined],
        ['PATCH', '/accounts/acc_unknown', { status: 'blocked' }],
        ['POST', '/accounts/acc_unknown/api-keys', { permissions: ['balance:read'] }],
        ['GET', '/accounts/acc_unknown/api-keys', undefined],
        ['DELETE', '/api-keys/key_unknown', undefined],
      ] as const) {
        const res = await admin(live.stack, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
    });

    it('changes any setting and keeps the others', async () => {
      const created = await createAccount(live.stack);
      const patch = {
        status: 'blocked',
        kycStatus: 'pending',
        withdrawalsBlocked: true,
        pixReceivingEnabled: false,
        fees: { charge: { percent: 1.5 } },
        limits: { chargeMax: 5000.5, transferMin: 10 },
        route: 'simulator',
      };
      const res = await admin(live.stack, 'PATCH', `/accounts/${created.id}`, patch);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...created,
        ...patch,
        fees: { charge: { fixed: 0, percent: 1.5 }, transfer: { fixed: 0, percent: 0 } },
        limits: { chargeMin: 1, chargeMax: 5000.5, transferMin: 10 },
        updatedAt: expect.stringMatching(ISO),
      });
      expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      const shown = await admin(live.stack, 'GET', `/accounts/${created.id}`);
      expect(shown.body.data).toMatchObject(res.body.data);
    });

    it('refuses an invalid change without applying any part of it', async () => {
      const created = await createAccount(live.stack);
      const cases: Array<[unknown, string, (string | null)?]> = [
        [{ status: 'blocked', withdrawalsBlocked: 'yes' }, 'withdrawalsBlocked'],
        [{ pixReceivingEnabled: 1 }, 'pixReceivingEnabled'],
        [{ limits: { chargeMin: 20000 } }, 'limits.chargeMin'],
        [{ limits: { transferMin: 1.001 } }, 'limits.transferMin'],
        [{ name: 'Outro nome' }, 'name'],
        [{}, 'status', null],
        [undefined, 'status', null],
      ];
      for (const [body, field, param] of cases)
        expectInvalid(await admin(live.stack, 'PATCH', `/accounts/${created.id}`, body), field, param);
      expect((await admin(live.stack, 'GET', `/accounts/${created.id}`)).body.data).toMatchObject(created);
    });
  });

  describe('API keys', () => {
    it('creates a key shown only once and stores only its SHA-256', async () => {
      const account = await createAccount(live.stack);
      const res = await admin(live.stack, 'POST', `/accounts/${account.id}/api-keys`, {
        permissions: ['balance:read', 'transactions:read', 'balance:read'],
        allowedIps: ['203.0.113.7', '10.1.2.3/16', '2001:DB8::/32'],
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(/^key_[0-9a-f]{24}$/),
        key: expect.stringMatching(/^pix_live_[A-Za-z0-9_-]{43}$/),
        permissions: ['balance:read', 'transactions:read'],
        allowedIps: ['203.0.113.7', '10.1.0.0/16', '2001:db8::/32'],
      });
      const { id, key } = res.body.data;

      const [row] = await live.sql`select * from api_keys where id = ${id}`;
      expect(row!.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(key.slice('pix_live_'.length));

      const listed = await admin(live.stack, 'GET', `/accounts/${account.id}/api-keys`);
      expect(listed.body.data).toEqual([
        {
          id,
          accountId: account.id,
          prefix: key.slice(0, 13),
          permissions: ['balance:read', 'transactions:read'],
          allowedIps: ['203.0.113.7', '10.1.0.0/16', '2001:db8::/32'],
          createdAt: expect.stringMatching(ISO),
          revokedAt: null,
        },
      ]);
      expect(listed.text).not.toContain(key);
    });

    it('refuses invalid permissions and allow-lists naming the entry', async () => {
      const account = await createAccount(live.stack);
      const cases: Array<[unknown, string]> = [
        [{}, 'permissions'],
        [{ permissions: [] }, 'permissions'],
        [{ permissions: 'balance:read' }, 'permissions'],
        [{ permissions: ['balance:read', 'balance:write'] }, 'permissions[1]'],
        [{ permissions: ['balance:read'], allowedIps: ['10.0.0.1', 'localhost'] }, 'allowedIps[1]'],
        [{ permissions: ['balance:read'], allowedIps: ['10.0.0.0/33'] }, 'allowedIps[0]'],
        [{ permissions: ['balance:read'], allowedIps: '10.0.0.1' }, 'allowedIps'],
        [{ permissions: ['balance:read'], expiresAt: 'never' }, 'expiresAt'],
      ];
      for (const [body, field] of cases) expectInvalid(await admin(live.stack, 'POST', `/accounts/${account.id}/api-keys`, body), field);
      expect((await admin(live.stack, 'GET', `/accounts/${account.id}/api-keys`)).body.data).toEqual([]);
    });

    it('revokes a key, answering it without any secret, and keeps the first revocation time', async () => {
      const account = await createAccount(live.stack);
      const { id, key } = await createKey(live.stack, account.id, ['balance:read']);
      const res = await admin(live.stack, 'DELETE', `/api-keys/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id,
        accountId: account.id,
        prefix: key.slice(0, 13),
        permissions: ['balance:read'],
        allowedIps: [],
        createdAt: expect.stringMatching(ISO),
        revokedAt: expect.stringMatching(ISO),
      });
      expect(res.text).not.toContain(key);
      const again = await admin(live.stack, 'DELETE', `/api-keys/${id}`);
      expect(again.status).toBe(200);
      expect(again.body.data.revokedAt).toBe(res.body.data.revokedAt);
    });
  });
});
