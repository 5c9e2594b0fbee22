// Generates the TypeScript types of the Central Bank's API Pix (src/pix-routes/bcb-api-pix/api-pix.d.ts)
// from the standard's document kept beside the route, with openapi-typescript. Run by `npm install`
// (postinstall) and by `npm run generate:psp-types`. Only the typecheck needs them (the running engine
// strips types), so an install without dev dependencies skips this.
import { writeFileSync } from 'node:fs';

const DOCUMENT = new URL('../src/pix-routes/bcb-api-pix/bcb-api-pix-2.9.0.openapi.yaml', import.meta.url);
const TYPES = new URL('../src/pix-routes/bcb-api-pix/api-pix.d.ts', import.meta.url);

let generator;
try {
  generator = await import('openapi-typescript');
} catch {
  console.log('API Pix types not generated: openapi-typescript is not installed (an install without dev dependencies)');
  process.exit(0);
}
const ast = await generator.default(DOCUMENT);
writeFileSync(TYPES, generator.COMMENT_HEADER + generator.astToString(ast));
console.log('API Pix types generated in src/pix-routes/bcb-api-pix/api-pix.d.ts');
