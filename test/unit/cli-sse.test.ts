// pixctl's reading of server-sent events: messages split by blank lines whatever the chunking, comments
// and retry lines skipped, multi-line data joined.
import { describe, expect, it } from 'vitest';
import { sseMessages } from '../../src/admin/cli/sse.js';

async function read(chunks: string[]) {
  async function* body() {
    for (const chunk of chunks) yield new TextEncoder().encode(chunk);
  }
  const messages = [];
  for await (const message of sseMessages(body())) messages.push(message);
  return messages;
}

describe('sseMessages', () => {
  const text = 'retry: 1000\n\nid: 7-evt_a\nevent: transaction.approved\ndata: {"id":"evt_a"}\n\n: keepalive\n\ndata: one\ndata: two\n\n';

  it('reads id, event and data, skipping comments and retry lines', async () => {
    expect(await read([text])).toEqual([
      { id: '7-evt_a', event: 'transaction.approved', data: '{"id":"evt_a"}' },
      { event: 'message', data: 'one\ntwo' },
    ]);
  });

  it('gives the same messages whatever the chunks, CRLF included', async () => {
    const crlf = text.replaceAll('\n', '\r\n');
    const byByte = crlf.split('');
    expect(await read(byByte)).toEqual(await read([text]));
  });

  it('keeps an unfinished message back until its blank line', async () => {
    expect(await read(['id: 1-evt_b\ndata: {}\n'])).toEqual([]);
  });
});
