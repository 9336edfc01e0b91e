import { describe, expect, it } from 'vitest';

import { readXsrfToken } from './xsrf';

// Security review L2: over HTTPS the shop names its XSRF cookie `__Host-XSRF-TOKEN`.
describe('readXsrfToken', () => {
  it('reads the plain cookie over http', () => {
    expect(readXsrfToken('a=1; XSRF-TOKEN=abc%2Fdef')).toBe('abc/def');
  });

  it('reads the __Host- cookie over https, before any plain one', () => {
    expect(readXsrfToken('__Host-XSRF-TOKEN=secure')).toBe('secure');
    expect(readXsrfToken('XSRF-TOKEN=planted; __Host-XSRF-TOKEN=secure')).toBe('secure');
  });

  it('has nothing without a cookie', () => {
    expect(readXsrfToken('a=1')).toBeUndefined();
  });
});
