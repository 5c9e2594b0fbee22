#!/usr/bin/env node
// Guards postgres.js 3.4.9 against a write on a connection whose socket is already closed
// (porsager/postgres#1154, #1208; unfixed upstream). A small write is deferred with setImmediate; when
// PostgreSQL drops the connection first (pg_terminate_backend, a restart, a proxy), the deferred
// write reads `socket.write` of null and throws outside any query: an uncaught exception that kills
// the process. Patched, the write rejects the connection's queries with CONNECTION_CLOSED (as a closed
// connection does), and closing forgets the deferred write so that a later connection never sends it.
// A connection reset (ECONNRESET) rejects only the query running when it came: a query sent after it and
// before the close would wait forever; patched, the close rejects it too.
// Idempotent; run by postinstall and by the Dockerfile. test/integration/postgres-closed-socket.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PATCHED_VERSION = '3.4.9';
const MARK = '/* pix-engine: closed-socket guard */';
const GUARD = `function nextWrite(fn) {
    ${MARK}
    if (!socket) {
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
`;
const TEARDOWN = '\n    clearImmediate(nextWriteTimer)\n';
const FORGET = '\n    clearImmediate(nextWriteTimer), chunk = nextWriteTimer = null\n';
const CLOSED_QUIETLY = "!hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))";
const CLOSED_ANY_WAY = "!!(query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))";

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'postgres');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (version !== PATCHED_VERSION) {
  console.error(`postgres ${version} is not ${PATCHED_VERSION}: check whether its nextWrite still needs scripts/patch-postgres.mjs`);
  process.exit(1);
}

for (const file of ['src/connection.js', 'cjs/src/connection.js']) {
  const path = join(root, file);
  const source = readFileSync(path, 'utf8');
  if (source.includes(MARK)) continue;
  const teardowns = source.split(TEARDOWN).length - 1;
  if (!source.includes('function nextWrite(fn) {\n') || teardowns !== 2 || !source.includes(CLOSED_QUIETLY)) {
    console.error(`${path}: not the connection.js this patch was written for`);
    process.exit(1);
  }
  writeFileSync(
    path,
    source.replace('function nextWrite(fn) {\n', GUARD).replaceAll(TEARDOWN, FORGET).replace(CLOSED_QUIETLY, CLOSED_ANY_WAY),
  );
}
