// What an API key may be allowed to do: each public route asks for one of these (src/routing/public-route.ts).

export const PERMISSIONS = ['payments:write', 'transactions:read', 'transfers:write', 'balance:read'] as const;
export type Permission = (typeof PERMISSIONS)[number];
