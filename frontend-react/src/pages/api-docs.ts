// The browsable API page (/api/docs): Swagger UI, copied from npm's swagger-ui-dist beside
// our files by scripts/copy-api-docs.mjs and loaded before this module as a classic script,
// shows the OpenAPI document the server derives from its handlers. A file, so the page
// needs no inline script under its policy.
interface SwaggerOptions {
  url: string;
  dom_id: string;
  deepLinking: boolean;
}

declare global {
  interface Window {
    SwaggerUIBundle?: (options: SwaggerOptions) => unknown;
  }
}

export function start(win: Window = window): boolean {
  if (!win.SwaggerUIBundle) return false;
  win.SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
  return true;
}

start();
