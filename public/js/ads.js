/* Advertising loader (spec 000 §1, §4 "Advertising blocker"). Served as-is; on the page
   only when the visitor accepted the behaviour category (C0004), see
   app/src/onboarding/ui/layer.rs. It loads the advertising script; when that fails (an ad
   blocker, a network error), the blocker cookie `adBlocker` is set for a month, the
   filtered-banner marker `filteredBanner` (localStorage) is written, and the sponsored
   banners are hidden (`html.ads-blocked`); the shop keeps working. When it loads, the
   cookie and the marker are cleared and the banners shown again. */
(function () {
  'use strict';
  var COOKIE = 'adBlocker';
  var MARKER = 'filteredBanner';
  var MONTH_SECS = 30 * 24 * 3600;
  var SRC = '/js/ads-demo.js';
  var root = document.documentElement;
  var secure = location.protocol === 'https:' ? '; Secure' : '';

  function hasCookie(name) {
    return document.cookie.split(/;\s*/).some(function (c) { return c.indexOf(name + '=') === 0; });
  }
  function marker(set) {
    try {
      if (set) { window.localStorage.setItem(MARKER, '1'); } else { window.localStorage.removeItem(MARKER); }
    } catch (e) { /* storage refused: the cookie is enough */ }
  }
  function blocked() {
    document.cookie = COOKIE + '=1; Max-Age=' + MONTH_SECS + '; Path=/; SameSite=Lax' + secure;
    marker(true);
    root.classList.add('ads-blocked');
    root.setAttribute('data-ads', 'blocked');
  }
  function loaded() {
    document.cookie = COOKIE + '=; Max-Age=0; Path=/; SameSite=Lax' + secure;
    marker(false);
    root.classList.remove('ads-blocked');
    root.setAttribute('data-ads', 'loaded');
  }

  // Known to be blocked: sponsored banners stay hidden while the script is tried again.
  if (hasCookie(COOKIE)) root.classList.add('ads-blocked');
  root.setAttribute('data-ads', 'loading');
  var s = document.createElement('script');
  s.src = SRC;
  s.async = true;
  s.onload = loaded;
  s.onerror = blocked;
  document.head.appendChild(s);
})();
