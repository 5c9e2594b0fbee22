// GET /v1/docs: the API reference as one HTML page rendered on the server from the OpenAPI document
// itself (operations grouped by resource, their parameters, request and response schemas, the webhooks
// and the named schemas). No script and no third-party origin: the page's only style is inline, allowed
// by its hash in the Content-Security-Policy the route sends.
import { createHash } from 'node:crypto';
import type { Json } from './components.js';

type Node = { [key: string]: Json };

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code,pre{font:13px ui-monospace,monospace}pre{white-space:pre-wrap;background:#f5f5f5;padding:.75rem}
section.op{border-top:1px solid #ddd;margin-top:1.5rem}.m{font-weight:700;text-transform:uppercase;margin-right:.5rem}
ul.schema{list-style:none;padding-left:1.2rem;border-left:2px solid #eee}.t{color:#555}.req{color:#b00020}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}`;

/** The Content-Security-Policy of the page: nothing but its own inline style. */
export const REFERENCE_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escape = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const anchor = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '-');

const refName = (ref: string) => decodeURIComponent(ref.split('/').pop()!);

/** One line of facts about a schema: its type and constraints. */
function facts(schema: Node): string {
  const parts: string[] = [];
  if (schema.const !== undefined) parts.push(`= ${JSON.stringify(schema.const)}`);
  else if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  else if (schema.type !== undefined) parts.push(Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type));
  for (const key of ['format', 'minimum', 'maximum', 'minLength', 'maxLength', 'maxItems', 'pattern', 'multipleOf', 'default'])
    if (schema[key] !== undefined) parts.push(`${key} ${JSON.stringify(schema[key])}`);
  return escape(parts.join(', '));
}

/** A schema as nested lists; named schemas are links to their section. */
function schemaHtml(json: Json | undefined, depth = 0): string {
  if (json === undefined || json === null || typeof json !== 'object' || Array.isArray(json)) return '';
  const schema = json as Node;
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#schema-${anchor(name)}">${escape(name)}</a>`;
  }
  if (depth > 8) return '…';
  const description = typeof schema.description === 'string' ? ` — ${escape(schema.description)}` : '';
  let html = `<span class="t">${facts(schema)}</span>${description}`;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(alternatives))
    html += ` one of:<ul class="schema">${alternatives.map((a) => `<li>${schemaHtml(a, depth + 1)}</li>`).join('')}</ul>`;
  if (schema.items !== undefined) html += ` of ${schemaHtml(schema.items, depth + 1)}`;
  if (schema.properties && typeof schema.properties === 'object') {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const rows = Object.entries(schema.properties as Node).map(
      ([name, property]) =>
        `<li><code>${escape(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}: ${schemaHtml(property, depth + 1)}</li>`,
    );
    html += `<ul class="schema">${rows.join('')}</ul>`;
  }
  return html;
}

function contentHtml(content: Json | undefined): string {
  if (!content || typeof content !== 'object') return '';
  return Object.entries(content as Node)
    .map(([type, media]) => `<p><code>${escape(type)}</code></p>${schemaHtml((media as Node).schema)}`)
    .join('');
}

function parametersHtml(parameters: Json | undefined): string {
  if (!Array.isArray(parameters) || parameters.length === 0) return '';
  const rows = (parameters as Node[]).map(
    (p) =>
      `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${schemaHtml(p.schema)}${
        p.description && !(p.schema as Node | undefined)?.description ? ` ${escape(p.description)}` : ''
      }</td></tr>`,
  );
  return `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${rows.join('')}</table>`;
}

function requestBodyHtml(body: Json | undefined, components: Node): string {
  if (!body || typeof body !== 'object') return '';
  let resolved = body as Node;
  if (typeof resolved.$ref === 'string') resolved = ((components.requestBodies ?? {}) as Node)[refName(resolved.$ref)] as Node;
  return `<h4>Request body${resolved.required ? ' (required)' : ''}</h4>${contentHtml(resolved.content)}`;
}

function responsesHtml(responses: Json | undefined): string {
  const items = Object.entries((responses ?? {}) as Node).map(([status, response]) => {
    const r = response as Node;
    const body = status.startsWith('2') ? contentHtml(r.content) : '';
    return `<li><strong>${escape(status)}</strong>: <pre>${escape(r.description ?? '')}</pre>${body}</li>`;
  });
  return `<h4>Responses</h4><ul>${items.join('')}</ul>`;
}

function operationHtml(method: string, path: string, op: Node, components: Node): string {
  const id = typeof op.operationId === 'string' ? op.operationId : `${method}-${path}`;
  return `<section class="op" id="${escape(anchor(id))}"><h3><span class="m">${escape(method)}</span><code>${escape(path)}</code></h3>
<p><strong>${escape(op.summary ?? '')}</strong> <code>${escape(id)}</code></p><p>${escape(op.description ?? '')}</p>
${parametersHtml(op.parameters)}${requestBodyHtml(op.requestBody, components)}${responsesHtml(op.responses)}</section>`;
}

/** The resource an operation belongs to: the first segment of its path. */
const resourceOf = (path: string) => `/${path.split('/')[1] ?? ''}`;

/** The reference page of `document`. */
export function referencePage(document: Record<string, Json>): string {
  const info = document.info as Node;
  const components = (document.components ?? {}) as Node;
  const groups = new Map<string, string[]>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Node))
    for (const [method, op] of Object.entries(item as Node)) {
      const group = groups.get(resourceOf(path)) ?? [];
      group.push(operationHtml(method, path, op as Node, components));
      groups.set(resourceOf(path), group);
    }
  const webhooks = Object.entries((document.webhooks ?? {}) as Node).map(([name, item]) =>
    operationHtml('event', name, (item as Node).post as Node, components),
  );
  const schemas = Object.entries((components.schemas ?? {}) as Node).map(
    ([name, schema]) => `<section id="schema-${anchor(name)}"><h3>${escape(name)}</h3>${schemaHtml(schema)}</section>`,
  );
  const servers = ((document.servers ?? []) as Node[]).map((s) => `<code>${escape(s.url)}</code>`).join(', ');
  const toc = [...groups.keys()].map((g) => `<li><a href="#group-${anchor(g)}">${escape(g)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(info.title)} — API reference</title><style>${STYLE}</style></head><body>
<h1>${escape(info.title)} <small>${escape(info.version)}</small></h1>
<p>Base address: ${servers}. Rendered from <a href="openapi.json">the OpenAPI document</a>.</p>
<pre>${escape(info.description ?? '')}</pre>
<nav><ul>${toc}<li><a href="#webhooks">Webhooks</a></li><li><a href="#schemas">Schemas</a></li></ul></nav>
${[...groups.entries()].map(([group, ops]) => `<h2 id="group-${anchor(group)}">${escape(group)}</h2>${ops.join('\n')}`).join('\n')}
<h2 id="webhooks">Webhooks</h2>${webhooks.join('\n')}
<h2 id="schemas">Schemas</h2>${schemas.join('\n')}
</body></html>
`;
}
