// An account of the engine, as the code sees it: money in centavos, percentages in percent.
import type { Permission } from './permissions.js';

export interface FeeRule {
  fixedCents: number;
  percent: number; // 1.5 means 1.5 %
}

export interface Account {
  id: string; // acc_…
  name: string;
  document: string;
  email: string;
  kycStatus: 'approved' | 'pending';
  status: 'active' | 'blocked';
  withdrawalsBlocked: boolean;
  pixReceivingEnabled: boolean;
  fees: { charge: FeeRule; transfer: FeeRule };
  limits: { chargeMinCents: number; chargeMaxCents: number; transferMinCents: number };
  route: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Who is calling an authenticated route: set on `ctx.state.caller` by the guard. */
export interface Caller {
  account: Account;
  keyId: string;
  /** Hex SHA-256 of the API key: also the legacy webhook signing key. */
  keyHash: string;
  permissions: Permission[];
}
