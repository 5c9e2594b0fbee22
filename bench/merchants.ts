// Bench merchants: accounts made through the admin API, each with payments:write API keys.

/** Merchants and enough API keys that no key passes its quota during the run. */
export async function bearerTokens(adminUrl: string, adminHeaders: { authorization: string }, count: number): Promise<string[]> {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${adminUrl}${path}`, {
      method: 'POST',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`admin ${path} answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { data: any }).data;
  };
  const tokens: string[] = [];
  for (let i = 0; tokens.length < count; i++) {
    const account = await call('/accounts', {
      name: `Loja Bench ${i}`,
      document: '11222333000181',
      allowDuplicate: true, // every bench merchant shares one document
      email: `bench${i}.${Date.now()}@example.com`,
      kycStatus: 'approved',
      fees: { charge: { fixed: 0.5, percent: 1.99 } },
    });
    for (let k = 0; k < 10 && tokens.length < count; k++)
      tokens.push((await call(`/accounts/${account.id}/api-keys`, { permissions: ['payments:write'] })).key);
  }
  return tokens;
}
