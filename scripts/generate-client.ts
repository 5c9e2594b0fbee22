// Generates the types of the TypeScript client (clients/typescript/src/api.d.ts) from the OpenAPI
// document the engine serves at GET /v1/openapi.json, built here in-process from the same route table,
// with openapi-typescript and its default options. Run by `npm install` (postinstall) and by
// `npm run generate:client`; an install without dev dependencies skips it, as only the typecheck needs them.
import { writeFileSync } from 'node:fs';

const TYPES = new URL('../clients/typescript/src/api.d.ts', import.meta.url);

let generator: typeof import('openapi-typescript');
try {
  generator = await import('openapi-typescript');
} catch {
  console.log('Client types not generated: openapi-typescript is not installed (an install without dev dependencies)');
  process.exit(0);
}
// Imported only now: an install without dev dependencies does not load the engine.
const { ROUTES } = await import('../src/api/routes/index.js');
const { catalogueOf } = await import('../src/api/routes/self.js');
const { buildOpenApiDocument } = await import('../src/openapi/document.js');
const document = buildOpenApiDocument(catalogueOf(ROUTES, { publicBaseUrl: null }));
const ast = await generator.default(JSON.stringify(document));
writeFileSync(TYPES, generator.COMMENT_HEADER + generator.astToString(ast));
console.log('Client types generated in clients/typescript/src/api.d.ts');
