// The webhook deliveries as OpenAPI 3.1 `webhooks`: one POST per event kind, with the signed
// delivery headers and the event envelope around the resource the event carries.
import Type, { type TSchema } from 'typebox';
import type { SchemaComponents, Json } from './components.js';

export interface WebhookEvent {
  /** `transaction.approved`, `med.created`, … (also the `X-Service-Event` header). */
  name: string;
  /** When the event is emitted. */
  summary: string;
  /** Name of the resource schema under components (e.g. `Transaction`). */
  dataName: string;
  data: TSchema;
  /** Pattern of the stable event `id`. */
  idPattern: string;
}

const DELIVERY_HEADERS = (event: string): Json[] => [
  {
    name: 'X-Service-Signature',
    in: 'header',
    required: true,
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed by the webhook secret (or, for keys without an endpoint, the hex SHA-256 of the API key). Validate it in constant time, with an anti-replay window on `t`, before reading the body.',
    schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
  },
  {
    name: 'X-Service-Event',
    in: 'header',
    required: true,
    description: 'The event name, equal to `event` in the body.',
    schema: { type: 'string', const: event },
  },
  {
    name: 'X-Service-Delivery',
    in: 'header',
    required: true,
    description: 'Identifier of this delivery; the same event may be delivered more than once, deduplicate by it or by the event `id`.',
    schema: { type: 'string' },
  },
];

function envelope(event: WebhookEvent): TSchema {
  return Type.Object(
    {
      id: Type.String({ pattern: event.idPattern, description: 'Stable event identifier, used for deduplication' }),
      event: Type.Literal(event.name),
      createdAt: Type.String({ format: 'date-time', description: 'When the event was generated' }),
      data: event.data,
    },
    { additionalProperties: false },
  );
}

export function webhookOperation(event: WebhookEvent, components: SchemaComponents): Json {
  components.name(event.dataName, event.data);
  const operationId = `on${event.name
    .split('.')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
  return {
    operationId,
    summary: event.summary,
    description:
      'Sent as an HTTP POST to the registered endpoint (or the `webhookUrl` of a charge). Answer 2xx quickly: at most 8 attempts, 8-second timeout per attempt, redirects are not followed. Events may arrive more than once and out of order; confirm the state with a GET before an irreversible action. The payload holds personal data: keep it out of open logs.',
    parameters: DELIVERY_HEADERS(event.name),
    requestBody: { required: true, content: { 'application/json': { schema: components.inline(envelope(event)) } } },
    responses: { '2XX': { description: 'Delivery acknowledged.' } },
  };
}
