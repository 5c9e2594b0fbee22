import { describe, expect, it } from 'vitest';
import { chargeIdOfTxid, devolucaoIdOf, idEnvioOf, transferIdOfIdEnvio, txidOf } from '../../src/pix-routes/bcb-api-pix/ids.js';

describe('PSP ids of engine operations', () => {
  const charge = 'txn_0123456789abcdef01234567';
  const transfer = 'out_0123456789abcdef01234567';

  it('a txid is the charge id without _, 27 characters, and names the charge back', () => {
    const txid = txidOf(charge);
    expect(txid).toBe('txn0123456789abcdef01234567');
    expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(chargeIdOfTxid(txid)).toBe(charge);
  });

  it('an idEnvio is the transfer id without _ and names the transfer back', () => {
    const idEnvio = idEnvioOf(transfer);
    expect(idEnvio).toBe('out0123456789abcdef01234567');
    expect(transferIdOfIdEnvio(idEnvio)).toBe(transfer);
  });

  it("a devolução id is the refund id without _, inside the standard's 1–35 letters and digits", () => {
    expect(devolucaoIdOf('rfd_0123456789abcdef01234567')).toBe('rfd0123456789abcdef01234567');
    expect(devolucaoIdOf('rfd_0123456789abcdef01234567')).toMatch(/^[a-zA-Z0-9]{1,35}$/);
    expect(() => devolucaoIdOf(charge)).toThrow();
  });

  it('ids the engine did not make name nothing', () => {
    expect(chargeIdOfTxid('abc123')).toBeNull();
    expect(chargeIdOfTxid(txidOf(charge).toUpperCase())).toBeNull();
    expect(transferIdOfIdEnvio(txidOf(charge))).toBeNull();
    expect(() => txidOf(transfer)).toThrow();
  });
});
