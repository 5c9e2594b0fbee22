// Every payload of a workflow history, as the Temporal server stores it, for the encryption tests:
// walks a History (the SDK's proto object, bytes as Uint8Array, or its JSON form, bytes as base64) and
// returns each {metadata, data} found with where it was, search attributes aside (the server indexes
// those in clear; they carry ids only).
export interface StoredPayload {
  path: string;
  metadata: Record<string, Buffer>;
  data: Buffer;
}

const bytes = (value: unknown): Buffer =>
  value instanceof Uint8Array ? Buffer.from(value) : typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);

export function historyPayloads(history: unknown): StoredPayload[] {
  const found: StoredPayload[] = [];
  const stack: Array<{ node: unknown; path: string }> = [{ node: history, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node === null || typeof node !== 'object' || node instanceof Uint8Array) continue;
    const record = node as Record<string, unknown>;
    if (!Array.isArray(node) && record.metadata && typeof record.metadata === 'object' && 'data' in record) {
      const metadata = Object.fromEntries(Object.entries(record.metadata).map(([key, value]) => [key, bytes(value)]));
      found.push({ path, metadata, data: bytes(record.data) });
      continue;
    }
    for (const [key, value] of Object.entries(record)) if (key !== 'searchAttributes') stack.push({ node: value, path: `${path}/${key}` });
  }
  return found;
}

export const encodingOf = (payload: StoredPayload) => payload.metadata.encoding?.toString('utf8');

const LOCAL_ACTIVITY_FIELDS = new Set([
  'activity_id',
  'activity_type',
  'attempt',
  'backoff',
  'complete_time',
  'original_schedule_time',
  'seq',
]);
const PATCH_FIELDS = new Set(['id', 'deprecated']);

const onlyFields = (payload: StoredPayload, fields: Set<string>) =>
  Object.keys(JSON.parse(payload.data.toString('utf8'))).every((field) => fields.has(field));

/**
 * The bookkeeping the SDK's core writes in markers, outside the payload codec's reach, holding no
 * data of the operation: beside a local activity's result its sequence number, type, attempt and
 * times; in a patch marker (patched()) the patch id.
 */
export function isCoreMarkerData(payload: StoredPayload): boolean {
  if (/\/markerRecordedEventAttributes\/details\/data\/payloads\/\d+$/.test(payload.path))
    return onlyFields(payload, LOCAL_ACTIVITY_FIELDS);
  if (/\/markerRecordedEventAttributes\/details\/patch-data\/payloads\/\d+$/.test(payload.path)) return onlyFields(payload, PATCH_FIELDS);
  return false;
}
