import { describe, expect, it } from 'vitest';
import { errorNameFor, ORDER_PIPE, SALE_CONTENT, SEARCH_RESULTS, STATIC_RESOURCES, trafficOf } from './events';

describe('traffic source of a landing page (spec 000 §9)', () => {
  const page = 'https://www.rosace.fr/gr/catalog/12';
  it.each([
    ['https://www.google.fr/', page, 'organic'],
    ['https://www.google.com/search?q=rosace', page, 'organic'],
    ['https://www.bing.com/', page, 'organic'],
    ['https://duckduckgo.com/', page, 'organic'],
    ['https://www.qwant.com/?q=x', page, 'organic'],
    ['https://search.yahoo.co.jp/', page, 'organic'],
    ['https://www.google.fr/', `${page}?utm_source=newsletter`, 'partner'],
    ['', `${page}?partnerId=42`, 'partner'],
    ['https://lh3.googleusercontent.com/x', page, 'referral'],
    ['https://www.example.org/deals', page, 'referral'],
    ['https://www.rosace.fr/gr/home', page, 'internal'],
    ['', page, 'direct'],
    ['not a url', page, 'direct'],
  ] as const)('%s → %s is %s', (referrer, url, expected) => {
    expect(trafficOf(referrer, url)).toBe(expected);
  });
});

describe('analytics error names of failed calls (spec 000 §8)', () => {
  it.each([
    ['/api/cartproxy/orderpiper/cart/v3/pay', 503, ORDER_PIPE],
    ['/api/cartproxy/cart/v2/item', 0, ORDER_PIPE],
    ['/api/cartproxy/cart/v2/item', 409, null],
    ['/api/catalog/v8/search/items', 500, SEARCH_RESULTS],
    ['/api/travel/v1/search', 0, SEARCH_RESULTS],
    ['/api/catalog/v2/sale/12', 502, SALE_CONTENT],
    ['/api/travel/v1/offers', 500, SALE_CONTENT],
    ['/api/catalog/v2/sale/12', 404, null],
    ['/api/catalog/v1/favorites', 500, null],
    ['/api/catalog/v2/sale/12/item/3/favorite', 500, null],
    ['/pkg/app-1234.wasm', 404, STATIC_RESOURCES],
    ['/widgets/travel-calendar.js', 0, STATIC_RESOURCES],
    ['/js/header.js', 200, null],
    ['/api/account/v1/profile', 500, null],
    ['/gr/catalog/12', 500, null],
  ] as const)('%s %i → %s', (path, status, expected) => {
    expect(errorNameFor(path, status)).toBe(expected);
  });

  it('uses the spec words exactly', () => {
    expect([ORDER_PIPE, SEARCH_RESULTS, STATIC_RESOURCES, SALE_CONTENT]).toEqual([
      'Unavailable Order Pipe',
      'Unavailable Search Results',
      'Static ressources are not available',
      'Unavailable Sale Content',
    ]);
  });
});
