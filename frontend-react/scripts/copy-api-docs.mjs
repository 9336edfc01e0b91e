// Copies Swagger UI (npm's swagger-ui-dist) to public/api-docs, so the browsable API page
// at /api/docs is served from our own files, never a CDN; src/pages/api-docs.ts starts it.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const from = join(here, '..', 'node_modules', 'swagger-ui-dist');
const to = join(here, '..', '..', 'public', 'api-docs');
mkdirSync(to, { recursive: true });
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
  copyFileSync(join(from, file), join(to, file));
}
