// The calls the README shows, written with the client: compiled with `tsc --strict` by the tests
// (test/integration/client-typescript.test.ts) against types generated from the served document.
import { constructWebhookEvent, createPixClient, verifyWebhook, type Transaction } from '../src/index.js';

export async function readmeCalls(apiKey: string, webhookSecret: string): Promise<Transaction[]> {
  const pix = createPixClient({ baseUrl: 'http://localhost:3000/v1', apiKey });

  // coverFee and split are optional; a split item takes amount or percent.
  const charge = await pix.createCharge(
    { amount: 149.9, payer: { name: 'Maria Souza', document: '529.982.247-25' }, description: 'Pedido 1001' },
    { idempotencyKey: 'pedido-1001' },
  );
  const copyPaste: string | undefined = charge.data.pix?.copyPaste;
  await pix.createCharge(
    {
      amount: 100,
      payer: { name: 'Maria Souza', document: '529.982.247-25', email: 'maria@example.com' },
      coverFee: true,
      split: [
        { recipient: 'parceiro@example.com', percent: 10, description: 'Comissão' },
        { recipient: 'acc_123', amount: 5 },
      ],
    },
    { idempotencyKey: 'pedido-1002' },
  );

  const byKey = await pix.getTransaction('pedido-1001', { refresh: true });
  const approved = await pix.listTransactions({ status: 'approved', type: 'payment', page: 1, limit: 20 });
  const total: number = approved.pagination.total;
  await pix.listTransactions({ createdFrom: '2026-11-01T03:00:00Z', createdTo: '2026-11-02T03:00:00Z' });
  const balance = await pix.getBalance();
  const available: number = balance.data.available;
  const statement = await pix.getStatement({ from: '2026-11-01T03:00:00Z', to: '2026-12-01T03:00:00Z', page: 1 });

  const transfer = await pix.createTransfer(
    { amount: 25, destination: { type: 'pix_key', value: 'fulano@example.com' } },
    { idempotencyKey: 'saque-1' },
  );
  await pix.createTransfer({ amount: 25, pixKey: 'fulano@example.com', pixKeyType: 'email' }, { idempotencyKey: 'saque-2' });
  const counterparty = transfer.data.counterparty;
  const destination: string | null =
    counterparty !== null && 'type' in counterparty
      ? counterparty.type === 'pix_key'
        ? counterparty.key
        : counterparty.merchantName
      : null;
  const shares: number[] = byKey.data.split.map((share) => share.amount);

  const rawBody = '{}';
  const header = 't=0,v1=00';
  if (verifyWebhook(rawBody, header, webhookSecret, 300)) {
    const event = constructWebhookEvent(rawBody, header, webhookSecret, 300);
    if (event.event === 'transaction.approved') return [event.data];
  }
  void [copyPaste, total, available, statement, destination, shares];
  return [charge.data, byKey.data, ...approved.data];
}
