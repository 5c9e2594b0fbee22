// Server-sent events read from a byte stream (the admin API's event stream): one message per blank
// line, `id`, `event` and `data` fields (several data lines joined by a line break), comments skipped.

export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** The message of one block of lines, or null for a block without data (a comment, a `retry:`). */
function messageOf(block: string): SseMessage | null {
  const message: { id?: string; event: string; data: string[] } = { event: 'message', data: [] };
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') message.id = value;
    else if (field === 'event') message.event = value;
    else if (field === 'data') message.data.push(value);
  }
  if (message.data.length === 0) return null;
  return { ...(message.id === undefined ? {} : { id: message.id }), event: message.event, data: message.data.join('\n') };
}

export async function* sseMessages(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    // A CR and its LF may come in two chunks: the buffer is normalised whole.
    buffered = (buffered + decoder.decode(chunk, { stream: true })).replaceAll('\r\n', '\n');
    let end: number;
    while ((end = buffered.indexOf('\n\n')) !== -1) {
      const message = messageOf(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (message) yield message;
    }
  }
}
