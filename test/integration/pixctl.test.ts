// pixctl run as operators run it: the real bin/pixctl.js, in a child process, against a started stack.
import { describe, expect, it } from 'vitest';
import { CNPJ, CPF } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { runPixctl } from '../helpers/pixctl-run.js';
import { http } from '../helpers/stack.js';

describe('pixctl', () => {
  const live = liveStack();

  const pixctl = (args: string[], env: Record<string, string> = {}) => runPixctl(live.stack, args, env);

  async function json(args: string[]): Promise<any> {
    const run = await pixctl([...args, '--json']);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  }

  it('creates an account, prints it as a table, and as JSON with --json', async () => {
    const table = await pixctl(['accounts', 'create', '--name', 'Mercado Azul', '--document', CNPJ.valid, '--email', 'ops@azul.example']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^id\s+acc_[0-9a-f]{24}$/m);
    expect(table.stdout).toMatch(/^kycStatus\s+pending$/m);
    expect(table.stdout).toMatch(/^fees\.charge\.percent\s+0$/m);
    expect(table.stdout).toMatch(/^limits\.chargeMax\s+10000$/m);

    const account = await json([
      'accounts',
      'create',
      '--name',
      'Mercado Verde',
      '--document',
      CPF.valid,
      '--email',
      'ops@verde.example',
      '--kyc',
      'approved',
      '--fees-charge-percent',
      '0.99',
    ]);
    expect(account).toMatchObject({
      id: expect.stringMatching(/^acc_/),
      name: 'Mercado Verde',
      document: CPF.validDigits,
      kycStatus: 'approved',
      fees: { charge: { fixed: 0, percent: 0.99 } },
    });
  });

  it('shows an account with its balance and changes its settings', async () => {
    const account = await json([
      'accounts',
      'create',
      '--name',
      'Loja Sol',
      '--document',
      CPF.valid,
      '--email',
      'sol@example.com',
      '--allow-duplicate',
    ]);
    const shown = await pixctl(['accounts', 'show', account.id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^balance\.currency\s+BRL$/m);
    expect(shown.stdout).toMatch(/^balance\.available\s+0$/m);

    const changed = await json([
      'accounts',
      'set',
      account.id,
      '--status',
      'blocked',
      '--withdrawals-blocked',
      'true',
      '--pix-receiving',
      'false',
      '--kyc',
      'approved',
      '--fees-charge-percent',
      '1.5',
      '--fees-transfer-fixed',
      '2.5',
      '--charge-max',
      '5000',
      '--transfer-min',
      '5',
    ]);
    expect(changed).toMatchObject({
      status: 'blocked',
      withdrawalsBlocked: true,
      pixReceivingEnabled: false,
      kycStatus: 'approved',
      fees: { charge: { fixed: 0, percent: 1.5 }, transfer: { fixed: 2.5, percent: 0 } },
      limits: { chargeMin: 1, chargeMax: 5000, transferMin: 5 },
    });
  });

  it('creates a key printed once, lists keys without secrets, and revokes a key', async () => {
    const account = await json([
      'accounts',
      'create',
      '--name',
      'Loja Lua',
      '--document',
      CPF.valid,
      '--email',
      'lua@example.com',
      '--kyc',
      'approved',
      '--allow-duplicate',
    ]);
    const created = await pixctl([
      'keys',
      'create',
      account.id,
      '--permissions',
      'balance:read,transactions:read',
      '--allowed-ips',
      '127.0.0.1, ::1',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const key = /^key\s+(pix_live_\S+)$/m.exec(created.stdout)?.[1];
    const keyId = /^id\s+(key_\S+)$/m.exec(created.stdout)?.[1];
    expect(key).toMatch(/^pix_live_[A-Za-z0-9_-]{43}$/);
    expect(created.stdout).toMatch(/^permissions\s+balance:read, transactions:read$/m);
    expect(created.stdout).toMatch(/shown only this once/);

    const listed = await pixctl(['keys', 'list', account.id]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).not.toContain(key);

    expect((await http('GET', `${live.stack.baseUrl}/balance`, { token: key })).status).toBe(200);
    const revoked = await json(['keys', 'revoke', keyId!]);
    expect(revoked).toMatchObject({ id: keyId, revokedAt: expect.any(String) });
    expect(revoked).not.toHaveProperty('key');
    expect((await http('GET', `${live.stack.baseUrl}/balance`, { token: key })).status).toBe(401);
  });

  it('exits 1 with the admin API message when the API refuses', async () => {
    const unknown = await pixctl(['accounts', 'show', 'acc_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/Conta não encontrada \(not_found, HTTP 404\)/);

    const invalid = await pixctl(['accounts', 'create', '--name', 'X', '--document', CPF.invalid, '--email', 'x@example.com']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/document .*\(invalid_request, HTTP 400\)/);

    const wrongToken = await pixctl(['accounts', 'show', 'acc_nope'], { ADMIN_TOKEN: 'wrong' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toMatch(/unauthorized, HTTP 401/);

    const noToken = await pixctl(['accounts', 'show', 'acc_nope'], { ADMIN_TOKEN: '' });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/ADMIN_TOKEN/);

    const unreachable = await pixctl(['accounts', 'show', 'acc_nope'], { PIX_ADMIN_URL: 'http://127.0.0.1:1' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/cannot reach the admin API/);
  });

  it('exits 2 with the usage on a mistake in the command line', async () => {
    for (const args of [
      ['accounts', 'create', '--name', 'X', '--email', 'x@example.com'],
      ['accounts', 'set', 'acc_x', '--withdrawals-blocked', 'maybe'],
      ['accounts', 'set', 'acc_x', '--charge-max', 'lots'],
      ['accounts', 'show'],
      ['accounts', 'show', 'acc_x', '--colour', 'red'],
      ['accounts', 'explode'],
      ['nothing'],
    ]) {
      const run = await pixctl(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/^pixctl: .+/);
      expect(run.stderr, args.join(' ')).toMatch(/pixctl /);
    }
    const help = await pixctl(['keys', 'create', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pixctl keys create <accountId> --permissions <value>/);
  });
});
