import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBrCode } from '../../../src/domain/brcode.js';
import { QR_READ_LIMITS } from '../../../src/domain/qr-reader.js';
import { qrPngBase64, QR_IMAGE_LIMITS } from '../../../src/domain/qrcode.js';
import { chargeBody, newKey, payCharge, postCharge, waitForStatus } from '../../helpers/charges.js';
import { createAccount, createKey, client, createMerchant, patchAccount } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { poll } from '../../helpers/probe.js';
import { startStack, type HttpResult } from '../../helpers/stack.js';
import { balanceOf, completeTransfer, cpfKeyBody, fund, postTransfer } from '../../helpers/transfers.js';

const CODE_10 = buildBrCode({
  pixKey: 'loja@example.com',
  amountCents: 1000,
  txid: 'pedido77',
  merchantName: 'Loja',
  merchantCity: 'Recife',
});
const CODE_OPEN = buildBrCode({ pixKey: '52998224725', txid: 'livre1', merchantName: 'Fulano', merchantCity: 'Natal' });
const BROKEN_CRC = `${CODE_10.slice(0, -4)}${CODE_10.endsWith('0000') ? '1111' : '0000'}`;

// Transfers stay pending until the operator settles them, so a pending one blocks the next.
describe('POST /v1/transfers', () => {
  const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });

  describe('validation: 400 invalid_request changes nothing', () => {
    let merchant: Awaited<ReturnType<typeof createMerchant>>;
    beforeAll(async () => {
      merchant = await createMerchant(live.stack, { fees: { transfer: { fixed: 4, percent: 0 } } });
      await fund(live.stack, merchant.client, 100);
    });

    it.each([
      ['no body', undefined],
      ['an array body', [1]],
      ['no destination', { amount: 10 }],
      ['amount with three decimals', cpfKeyBody({ amount: 10.001 })],
      ['negative amount', cpfKeyBody({ amount: -10 })],
      ['amount as text', cpfKeyBody({ amount: '10' })],
      ['amount below 3 reais', cpfKeyBody({ amount: 2.99 })],
      ['amount not above the fee (4.00)', cpfKeyBody({ amount: 4 })],
      ['key transfer without amount', { pixKey: '529.982.247-25', pixKeyType: 'cpf' }],
      ['pixKey without pixKeyType', { amount: 10, pixKey: '52998224725' }],
      ['pixKeyType without pixKey', { amount: 10, pixKeyType: 'cpf' }],
      ['unknown pixKeyType', cpfKeyBody({ pixKeyType: 'evp' })],
      ['cpf: wrong check digits', cpfKeyBody({ pixKey: '529.982.247-24' })],
      ['cnpj: wrong check digits', { amount: 10, pixKey: '11.222.333/0001-80', pixKeyType: 'cnpj' }],
      ['cnpj: alphanumeric with wrong check digits', { amount: 10, pixKey: '12.ABC.345/01DE-34', pixKeyType: 'cnpj' }],
      ['email: not an address', { amount: 10, pixKey: 'fulano@', pixKeyType: 'email' }],
      ['email: over 77 characters', { amount: 10, pixKey: `${'a'.repeat(70)}@example.com`, pixKeyType: 'email' }],
      ['phone: without +55', { amount: 10, pixKey: '11987654321', pixKeyType: 'phone' }],
      ['phone: a landline', { amount: 10, pixKey: '+551133334444', pixKeyType: 'phone' }],
      ['random: not a UUID', { amount: 10, pixKey: '123e4567-e89b', pixKeyType: 'random' }],
      ['a CPF declared as e-mail', { amount: 10, pixKey: '52998224725', pixKeyType: 'email' }],
      [
        'destination and pixKey together',
        { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', destination: { type: 'pix_key', value: '52998224725' } },
      ],
      ['unknown destination type', { amount: 10, destination: { type: 'iban', value: 'x' } }],
      ['destination without value', { amount: 10, destination: { type: 'pix_key' } }],
      ['pix_key: ambiguous bare digits', { amount: 10, destination: { type: 'pix_key', value: '11987654321' } }],
      ['pix_key: not a key', { amount: 10, destination: { type: 'pix_key', value: 'chave qualquer' } }],
      ['pix_copy_paste: broken CRC', { destination: { type: 'pix_copy_paste', value: BROKEN_CRC } }],
      ['pix_copy_paste: not a BR Code', { destination: { type: 'pix_copy_paste', value: 'pague-me' } }],
      ['pix_copy_paste: static code without value and no amount', { destination: { type: 'pix_copy_paste', value: CODE_OPEN } }],
      ['qr_code: neither a code nor a QR image', { destination: { type: 'qr_code', value: 'aGVsbG8=' } }],
      ['description over 140', cpfKeyBody({ description: 'x'.repeat(141) })],
      ['coverFee not a boolean', cpfKeyBody({ coverFee: 'true' })],
    ])('%s', async (_name, body) => {
      const res = await postTransfer(merchant.client, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'invalid_request', message: expect.any(String) },
        requestId: expect.any(String),
      });
      expect(res.text).not.toMatch(/at \w+ \(|node_modules/);
    });

    it.each([
      ['no key at all', cpfKeyBody(), null, 400, 'idempotency_key_required'],
      ['a key with a space', cpfKeyBody(), 'chave com espaço', 400, 'invalid_idempotency_key'],
      ['a key over 100 characters', cpfKeyBody(), 'k'.repeat(101), 400, 'invalid_idempotency_key'],
      ['externalId over 100 characters', cpfKeyBody({ externalId: 'k'.repeat(101) }), null, 400, 'invalid_idempotency_key'],
      [
        'externalId over 100 characters, with the header',
        cpfKeyBody({ externalId: 'k'.repeat(101) }),
        'k'.repeat(100),
        400,
        'invalid_idempotency_key',
      ],
      ['externalId with a space', cpfKeyBody({ externalId: 'pedido 1' }), null, 400, 'invalid_idempotency_key'],
      ['header different from externalId', cpfKeyBody({ externalId: 'abc' }), 'xyz', 409, 'idempotency_conflict'],
    ])('idempotency key: %s', async (_name, body, key, status, code) => {
      const res = await postTransfer(merchant.client, body, key);
      expect([res.status, res.body.error.code]).toEqual([status, code]);
    });

    it('left the balance and the transaction list untouched', async () => {
      expect(await balanceOf(merchant.client)).toEqual({ available: 100, reserved: 0 });
      const list = await merchant.client.get('/transactions?type=withdrawal');
      expect(list.body.pagination.total).toBe(0);
    });
  });

  describe('destinations: every key type and both shapes are accepted', () => {
    it.each([
      ['legacy cpf', { pixKey: '529.982.247-25', pixKeyType: 'cpf' }, { type: 'pix_key', keyType: 'cpf', key: '52998224725' }],
      ['legacy cnpj', { pixKey: '11.222.333/0001-81', pixKeyType: 'cnpj' }, { type: 'pix_key', keyType: 'cnpj', key: '11222333000181' }],
      [
        'legacy alphanumeric cnpj',
        { pixKey: '12.abc.345/01de-35', pixKeyType: 'cnpj' },
        { type: 'pix_key', keyType: 'cnpj', key: '12ABC34501DE35' },
      ],
      [
        'legacy email',
        { pixKey: 'Fulano@Example.com', pixKeyType: 'email' },
        { type: 'pix_key', keyType: 'email', key: 'fulano@example.com' },
      ],
      [
        'legacy phone',
        { pixKey: '+55 (11) 98765-4321', pixKeyType: 'phone' },
        { type: 'pix_key', keyType: 'phone', key: '+5511987654321' },
      ],
      [
        'legacy random',
        { pixKey: '71C7D9BE-4B85-4E43-9F1C-1F3B8B4E9A2D', pixKeyType: 'random' },
        { type: 'pix_key', keyType: 'random', key: '71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d' },
      ],
      [
        'modern pix_key, type inferred',
        { destination: { type: 'pix_key', value: '+5511987654321' } },
        { type: 'pix_key', keyType: 'phone', key: '+5511987654321' },
      ],
      [
        'modern pix_copy_paste with value',
        { destination: { type: 'pix_copy_paste', value: CODE_10 }, amount: 99 },
        { type: 'br_code', pixKey: 'loja@example.com', internal: false },
      ],
      [
        'modern pix_copy_paste without value',
        { destination: { type: 'pix_copy_paste', value: CODE_OPEN }, amount: 10 },
        { type: 'br_code', pixKey: '52998224725' },
      ],
      ['modern qr_code as text', { destination: { type: 'qr_code', value: CODE_10 } }, { type: 'br_code', merchantName: 'Loja' }],
    ])('%s', async (_name, body, counterparty) => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 20);
      const res = await postTransfer(merchant.client, { amount: 10, ...body });
      expect(res.status).toBe(201);
      // The code's own value (10.00) prevails over `amount`.
      expect(res.body.data).toMatchObject({
        amount: 10,
        status: 'pending',
        direction: 'out',
        type: 'withdrawal',
        method: 'pix',
        counterparty,
      });
      expect(await balanceOf(merchant.client)).toEqual({ available: 10, reserved: 10 });
    });

    it('modern qr_code as a PNG image of the code', async () => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 10);
      const res = await postTransfer(merchant.client, { destination: { type: 'qr_code', value: await qrPngBase64(CODE_10) } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ amount: 10, counterparty: { type: 'br_code', txid: 'pedido77' } });
    });
  });

  describe('QR images: accounts take turns at the decoder', () => {
    it("one account's large images do not hold back another's transfer; past its share of the queue an account gets 503 with Retry-After, and that key stays free", async () => {
      const [busy, other] = [await createMerchant(live.stack), await createMerchant(live.stack)];
      await fund(live.stack, busy.client, 20);
      await fund(live.stack, other.client, 10);
      // Over a second of decoding each, at the size budget.
      const large = {
        destination: {
          type: 'qr_code',
          value: (await QRCode.toBuffer(CODE_10, { type: 'png', width: QR_IMAGE_LIMITS.side })).toString('base64'),
        },
      };
      const keys = Array.from({ length: 2 + QR_READ_LIMITS.perAccountWaiting }, () => newKey('qr'));
      const isFull = (res: HttpResult) => res.status === 503 && /Muitas imagens/.test(res.body.error?.message);
      const otherImage = await qrPngBase64(CODE_10);
      /** Who was answered, in the order the answers came. */
      const answered: Array<'busy' | 'other'> = [];
      let shareFull!: () => void;
      const busyShareFull = new Promise<void>((resolve) => (shareFull = resolve));
      // One decoding, its share of the queue waiting, and one more: refused at once.
      const busyAnswers = Promise.all(
        keys.map((key) =>
          postTransfer(busy.client, large, key).then((res) => {
            answered.push('busy');
            if (isFull(res)) shareFull();
            return res;
          }),
        ),
      );
      // The refusal past its share says all of the busy account's images are in: one decoding, four waiting.
      await Promise.race([busyShareFull, busyAnswers]);
      const otherTransfer = await postTransfer(other.client, { destination: { type: 'qr_code', value: otherImage } });
      answered.push('other');
      expect(otherTransfer.status, otherTransfer.text).toBe(201);

      const answers = await busyAnswers;
      // Exactly one was past the account's share and refused at once. Behind four large decodes a
      // loaded machine may also run out a waiting image's 10 s turn: that is the engine right too
      // (a retryable 503 of its own words), so it is told apart, not counted as a failure.
      const waited = answers.filter((res) => res.status === 503 && !isFull(res));
      for (const res of waited) expect(res.body.error.message).toMatch(/Leitores de QR code ocupados/);
      const statuses = answers.filter((res) => !waited.includes(res)).map((res) => res.status);
      expect(statuses.sort()).toEqual([201, ...Array(4 - waited.length).fill(409), 503]);
      // Its image was read in the turn after the busy image being decoded when it came, before those
      // waiting: at least three of the four answered after it (one may have had the slot by the time it came).
      expect(answered.length - 1 - answered.indexOf('other')).toBeGreaterThanOrEqual(3);
      const refused = answers.find(isFull)!;
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toMatchObject({
        success: false,
        error: { code: 'internal_error', message: expect.stringMatching(/tente novamente/) },
      });

      // Nothing was judged for the refused request: once the first transfer settled, its key is a new attempt.
      const created = answers.find((res) => res.status === 201)!;
      expect((await completeTransfer(live.stack, created.body.data.id, 'approved')).status).toBe(200);
      const retried = await postTransfer(busy.client, large, keys[answers.indexOf(refused)]!);
      expect(retried.status, retried.text).toBe(201);
      expect(retried.body.idempotent).toBe(false);
    }, 90_000);
  });

  describe('idempotency', () => {
    it('201 then 200 with the original; legacy and modern forms of one destination compare equal; 409 on another body', async () => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 50);
      const key = newKey('idem');
      const first = await postTransfer(
        merchant.client,
        { amount: 12.5, pixKey: '529.982.247-25', pixKeyType: 'cpf', description: 'x' },
        key,
      );
      expect(first.status).toBe(201);
      expect(first.body.idempotent).toBe(false);

      const modern = await postTransfer(
        merchant.client,
        { amount: 12.5, destination: { type: 'pix_key', value: '52998224725' }, description: 'x', externalId: key },
        null,
      );
      expect(modern.status).toBe(200);
      expect(modern.body).toMatchObject({ idempotent: true, data: { id: first.body.data.id, amount: 12.5 } });

      for (const changed of [{ amount: 12.51 }, { description: 'y' }, { coverFee: true }, { pixKey: '111.444.777-35' }]) {
        const res = await postTransfer(
          merchant.client,
          { amount: 12.5, pixKey: '529.982.247-25', pixKeyType: 'cpf', description: 'x', ...changed },
          key,
        );
        expect([res.status, res.body.error?.code]).toEqual([409, 'idempotency_conflict']);
      }
      const byKey = await merchant.client.get(`/transactions/${key}`);
      expect(byKey.body.data.id).toBe(first.body.data.id);
      expect(await balanceOf(merchant.client)).toEqual({ available: 37.5, reserved: 12.5 });
    });

    it('description null is no description: 201, and the same body without description repeats it', async () => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 10);
      const key = newKey('nodesc');
      const created = await postTransfer(merchant.client, cpfKeyBody({ description: null }), key);
      expect(created.status).toBe(201);
      expect(created.body.data.description).toBeNull();
      const repeat = await postTransfer(merchant.client, cpfKeyBody(), key);
      expect(repeat.status).toBe(200);
      expect(repeat.body.data.id).toBe(created.body.data.id);
      const described = await postTransfer(merchant.client, cpfKeyBody({ description: 'aluguel' }), key);
      expect([described.status, described.body.error?.code]).toEqual([409, 'idempotency_conflict']);
    });

    it('a key already used by a charge is a conflict', async () => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 50);
      const list = await merchant.client.get('/transactions?type=payment');
      const res = await postTransfer(merchant.client, cpfKeyBody(), list.body.data[0].externalId);
      expect([res.status, res.body.error.code]).toEqual([409, 'idempotency_conflict']);
    });

    it('many concurrent requests with one key make one transfer', async () => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 30);
      const key = newKey('same');
      const answers = await Promise.all(Array.from({ length: 15 }, () => postTransfer(merchant.client, cpfKeyBody({ amount: 10 }), key)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
      expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
      expect(await balanceOf(merchant.client)).toEqual({ available: 20, reserved: 10 });
    });

    it('202 while the acceptance takes longer than the bounded wait, then 200 with the transfer', async () => {
      const slow = await startStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1', ACCEPT_WAIT_MS: '1' } });
      try {
        const merchant = await createMerchant(slow);
        // Funding through a charge, which is answered 202 too here.
        const chargeKey = newKey('fund');
        expect((await postCharge(merchant.client, chargeBody({ amount: 20 }), chargeKey)).status).toBe(202);
        // 404 until its workflow stores it, then pending without a Pix code until the route gave one.
        const charge = await poll(
          () => merchant.client.get(`/transactions/${chargeKey}`),
          (res) => (res.body.data.pix ? res.body.data : undefined),
          { notYet: [404] },
        );
        expect((await payCharge(slow, charge.id)).status).toBe(200);
        await waitForStatus(merchant.client, charge.id, 'approved');
        const key = newKey('slow');
        const first = await postTransfer(merchant.client, cpfKeyBody(), key);
        expect(first.status).toBe(202);
        const { name, document, email } = merchant.account;
        expect(first.body).toMatchObject({
          success: true,
          idempotent: false,
          data: {
            status: 'pending',
            amount: 10,
            id: expect.stringMatching(/^out_/),
            payer: { name, document, email },
            expiresAt: expect.any(String),
          },
        });
        const later = await poll(
          () => postTransfer(merchant.client, cpfKeyBody(), key),
          (res) => res,
          { notYet: [202] },
        );
        expect(later.body).toMatchObject({ idempotent: true, data: { id: first.body.data.id, status: 'pending' } });
        expect(await balanceOf(merchant.client)).toEqual({ available: 10, reserved: 10 });
      } finally {
        await slow.stop();
      }
    });
  });

  describe('account rules', () => {
    it('422 operation_refused when the available balance does not cover the debited amount', async () => {
      const merchant = await createMerchant(live.stack, { fees: { transfer: { fixed: 1, percent: 0 } } });
      await fund(live.stack, merchant.client, 10);
      const res = await postTransfer(merchant.client, cpfKeyBody({ amount: 9.01, coverFee: true }));
      expect([res.status, res.body.error.code]).toEqual([422, 'operation_refused']);
      expect(await balanceOf(merchant.client)).toEqual({ available: 10, reserved: 0 });
      const exact = await postTransfer(merchant.client, cpfKeyBody({ amount: 9, coverFee: true }));
      expect(exact.status).toBe(201);
      expect(await balanceOf(merchant.client)).toEqual({ available: 0, reserved: 10 });
    });

    it('423 invalid_request when the administration blocked withdrawals', async () => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 10);
      await patchAccount(live.stack, merchant.account.id, { withdrawalsBlocked: true });
      const res = await postTransfer(merchant.client, cpfKeyBody());
      expect([res.status, res.body.error.code]).toEqual([423, 'invalid_request']);
      await patchAccount(live.stack, merchant.account.id, { withdrawalsBlocked: false });
      expect((await postTransfer(merchant.client, cpfKeyBody())).status).toBe(201);
    });

    it('403 for a key without transfers:write, an unverified account and a blocked account', async () => {
      const merchant = await createMerchant(live.stack);
      const readOnly = client(live.stack, (await createKey(live.stack, merchant.account.id, ['transactions:read'])).key);
      expect((await postTransfer(readOnly, cpfKeyBody())).body.error.code).toBe('permission_denied');

      const pending = await createAccount(live.stack, { kycStatus: 'pending' });
      const unverified = client(live.stack, (await createKey(live.stack, pending.id)).key);
      expect((await postTransfer(unverified, cpfKeyBody())).body.error.code).toBe('kyc_required');

      await patchAccount(live.stack, merchant.account.id, { status: 'blocked' });
      const blocked = await postTransfer(merchant.client, cpfKeyBody());
      expect([blocked.status, blocked.body.error.code]).toEqual([403, 'account_unavailable']);
    });

    it('one pending transfer: of 20 concurrent requests with different keys exactly one is accepted', async () => {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, 100);
      const answers = await Promise.all(Array.from({ length: 20 }, () => postTransfer(merchant.client, cpfKeyBody({ amount: 5 }))));
      const accepted = answers.filter((a) => a.status === 201);
      expect(accepted).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 201)) {
        expect([refused.status, refused.body.error.code]).toEqual([409, 'WITHDRAWAL_IN_PROGRESS']);
      }
      expect(await balanceOf(merchant.client)).toEqual({ available: 95, reserved: 5 });
      const list = await merchant.client.get('/transactions?type=withdrawal');
      expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([accepted[0]!.body.data.id]);
      await expectLedgerConsistent(live.stack.databaseUrl);
    });
  });
});
