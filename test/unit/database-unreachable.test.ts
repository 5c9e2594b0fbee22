// Which errors the edge answers 503 for as PostgreSQL being unreachable (src/db/unreachable.ts), and which
// stay faults (500) or refusals of a statement.
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { databaseUnreachable } from '../../src/db/unreachable.js';

const serverError = (code: string, severity: string) => new postgres.PostgresError({ message: 'from the server', code, severity } as never);
const socketError = (code: string, syscall?: string) => Object.assign(new Error(`${syscall ?? 'socket'} ${code}`), { code, syscall });

describe('databaseUnreachable', () => {
  it('names the session the server ended or refused', () => {
    expect(databaseUnreachable(serverError('57P01', 'FATAL'))).toBe('57P01');
    expect(databaseUnreachable(serverError('55000', 'FATAL'))).toBe('55000');
    expect(databaseUnreachable(serverError('53300', 'FATAL'))).toBe('53300');
    expect(databaseUnreachable(serverError('08006', 'ERROR'))).toBe('08006');
    expect(databaseUnreachable(serverError('57P03', 'ERROR'))).toBe('57P03');
  });

  it('names a connection the driver or the socket lost', () => {
    expect(databaseUnreachable(Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' }))).toBe(
      'CONNECTION_CLOSED',
    );
    expect(databaseUnreachable(Object.assign(new Error('connect timeout'), { code: 'CONNECT_TIMEOUT' }))).toBe('CONNECT_TIMEOUT');
    expect(databaseUnreachable(socketError('ECONNREFUSED', 'connect'))).toBe('ECONNREFUSED');
    expect(databaseUnreachable(socketError('ECONNRESET', 'read'))).toBe('ECONNRESET');
  });

  it('leaves a statement the server refused, another failure and anything else to the caller', () => {
    expect(databaseUnreachable(serverError('23505', 'ERROR'))).toBeNull();
    expect(databaseUnreachable(serverError('40001', 'ERROR'))).toBeNull();
    expect(databaseUnreachable(serverError('57014', 'ERROR'))).toBeNull();
    expect(databaseUnreachable(socketError('ECONNREFUSED'))).toBeNull();
    expect(databaseUnreachable(socketError('ENOENT', 'open'))).toBeNull();
    expect(databaseUnreachable(new TypeError('x is undefined'))).toBeNull();
    expect(databaseUnreachable({ code: 'CONNECTION_CLOSED' })).toBeNull();
    expect(databaseUnreachable(undefined)).toBeNull();
  });
});
