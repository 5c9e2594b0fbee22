// The transfer scenario of `npm run bench` (bench/charges.ts runs it after the charge run, on the same
// engine): sustained transfer creation, POST /v1/transfers answered 201 (funds reserved, the transfer
// handed to the simulated network), at fixed concurrency with autocannon.
//
// One pending transfer per account is the rule, so every request comes from another account: the
// accounts are used in rotation, each again only after ACCOUNT_COOLDOWN_S at the highest rate the
// run can reach, long enough for the simulator (SIMULATOR_TRANSFER_DELAY_MS=0 for the bench) to have
// settled its previous transfer. They are created and funded directly in PostgreSQL (setup, not
// measured) with the engine's own modules; a 409 WITHDRAWAL_IN_PROGRESS in the run would mean an
// account came round before its transfer settled, and is reported.
import { createApiKey } from '../src/accounts/api-keys.js';
import { createAccount } from '../src/accounts/repository.js';
import { connect } from '../src/db/database.js';
import { customerAccount, platformAccount } from '../src/ledger/accounts.js';
import { post } from '../src/ledger/post.js';
import type { Figures } from './measure.js';
import { createdFigures, postLoad } from './post-load.js';

const ACCOUNT_COOLDOWN_S = 6;
const FUNDING_CENTS = 1_000_000;
const TRANSFER_BODY = JSON.stringify({ amount: 10, pixKey: '529.982.247-25', pixKeyType: 'cpf', description: 'bench' });

export interface TransferFigures extends Figures {
  /** 409 WITHDRAWAL_IN_PROGRESS among the errors. */
  inProgress: number;
}

/** Verified accounts, each with a transfers:write key and R$ 10.000,00 available; returns the keys. */
export async function transferAccounts(databaseUrl: string, maxRatePerS: number): Promise<string[]> {
  const sql = connect(databaseUrl, { max: 8 });
  try {
    const count = maxRatePerS * ACCOUNT_COOLDOWN_S;
    const one = async (i: number) => {
      const account = await createAccount(sql, {
        name: `Pagador Bench ${i}`,
        document: '11222333000181',
        email: `payer${i}@bench.example.com`,
        kycStatus: 'approved',
        allowDuplicate: true,
      });
      await sql.begin((tx) =>
        post(tx, {
          key: `bench:fund:${account.id}`,
          description: 'Bench: saldo inicial',
          entries: [
            { account: platformAccount('pix_clearing', account.id), amount: -FUNDING_CENTS },
            { account: customerAccount(account.id, 'available'), amount: FUNDING_CENTS },
          ],
        }),
      );
      return (await createApiKey(sql, account.id, { permissions: ['transfers:write'], allowedIps: [] }))!.key;
    };
    const tokens: string[] = [];
    for (let i = 0; i < count; i += 8)
      tokens.push(...(await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, j) => one(i + j)))));
    return tokens;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** autocannon posting transfers: a unique idempotency key per request, accounts in rotation. */
export async function transferLoad(
  apiUrl: string,
  tokens: string[],
  seconds: number,
  connections: number,
  label: string,
): Promise<TransferFigures> {
  const run = `${label.replace(/\W/g, '')}${Date.now()}`;
  const result = await postLoad({ url: `${apiUrl}/transfers`, body: TRANSFER_BODY, tokens, seconds, connections, run });
  return { ...createdFigures(label, result), inProgress: result.statusCodeStats['409']?.count ?? 0 };
}
