import { describe, expect, it, vi } from 'vitest';
import { start } from './api-docs';

describe('the API page module', () => {
  it('starts Swagger UI on the derived document', () => {
    const bundle = vi.fn();
    const win = { SwaggerUIBundle: bundle } as unknown as Window;
    expect(start(win)).toBe(true);
    expect(bundle).toHaveBeenCalledWith({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
  });

  it('does nothing when the Swagger UI script did not load', () => {
    expect(start({} as Window)).toBe(false);
  });
});
