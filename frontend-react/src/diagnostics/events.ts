// What the shop tracks (spec 000 §8 analytics error names, §9 organic traffic): the page
// view's traffic source from the referrer, and which failed call is which analytics error.

/** The analytics error names of spec 000 §8 (the server logs the same words). */
export const ORDER_PIPE = 'Unavailable Order Pipe';
export const SEARCH_RESULTS = 'Unavailable Search Results';
export const STATIC_RESOURCES = 'Static ressources are not available';
/** The home's furthest scroll position, in whole pixels (spec 000 §4 "Scroll tracking"). */
export const HOME_SCROLL = 'home_scroll_depth';
/** The window event the home's ScrollKeeper island sends it in (`FURTHEST_EVENT` in
 * app/src/home/ui/scroll.rs). */
export const HOME_SCROLL_EVENT = 'rosace:home-scroll';
export const SALE_CONTENT = 'Unavailable Sale Content';

/** Search engines whose referrers mark organic traffic (host name contains the word). */
const SEARCH_ENGINES = /(^|\.)(google|bing|yahoo|duckduckgo|qwant|ecosia|yandex|baidu|startpage|search\.brave|ask|aol|lilo|seznam|naver)\.[a-z.]+$/i;

/** Landing-page query parameters that name a campaign or partner (`utm_source=...`). */
const PARTNER_PARAMS = ['utm_source', 'partnerId', 'partner_id'];

export type Traffic = 'organic' | 'partner' | 'referral' | 'internal' | 'direct';

/**
 * The traffic source of a landing page (spec 000 §9: search-engine referrers mark organic
 * traffic): `partner` for a campaign link, `organic` for a search engine, `internal` from this
 * shop, `referral` from another site, `direct` without a referrer.
 */
export function trafficOf(referrer: string, pageUrl: string): Traffic {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return 'direct';
  }
  let from: URL | null = null;
  try {
    from = referrer ? new URL(referrer) : null;
  } catch {
    from = null;
  }
  // A campaign link is a partner's even from a search engine (a paid result carries one).
  if (PARTNER_PARAMS.some((p) => page.searchParams.has(p))) return 'partner';
  if (from && SEARCH_ENGINES.test(from.hostname)) return 'organic';
  if (!from) return 'direct';
  return from.origin === page.origin ? 'internal' : 'referral';
}

/**
 * The analytics error a failed call stands for, or null: `status` 0 is a call that did not
 * complete (network); a server failure is 500 and above (an API's 4xx answers a visitor's
 * request, it is not the shop being unavailable); a built file is unavailable from 400.
 */
export function errorNameFor(path: string, status: number): string | null {
  const failed = status === 0 || status >= 500;
  if (/^\/(pkg|widgets|js)\//.test(path)) return status === 0 || status >= 400 ? STATIC_RESOURCES : null;
  if (!failed || !path.startsWith('/api/')) return null;
  if (path.startsWith('/api/cartproxy/')) return ORDER_PIPE;
  if (/^\/api\/catalog\/v\d+\/search\//.test(path) || path === '/api/travel/v1/search') return SEARCH_RESULTS;
  // Favourites fail with their own message (§8 "Cannot add to favorite"), not as content.
  if (/\/favorites?(\/|$)/.test(path)) return null;
  if (path.startsWith('/api/catalog/') || path.startsWith('/api/travel/')) return SALE_CONTENT;
  return null;
}
