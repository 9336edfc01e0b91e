// Performance metrics (consent category C0002): the page includes this script only when
// the visitor accepted that category. Sends navigation timings once, batched.
(function () {
  // The XSRF cookie is `__Host-XSRF-TOKEN` over HTTPS, `XSRF-TOKEN` over plain HTTP.
  var token = (document.cookie.match(/(?:^|; )__Host-XSRF-TOKEN=([^;]*)/) ||
    document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/) || [])[1];
  function send() {
    var nav = performance.getEntriesByType('navigation')[0];
    if (!nav || !token) return;
    var metrics = [
      { name: 'ttfb', value: Math.round(nav.responseStart), type: 'timing', tags: {} },
      { name: 'dom_content_loaded', value: Math.round(nav.domContentLoadedEventEnd), type: 'timing', tags: {} },
    ];
    fetch('/api/frontend-logger/v1/metrics', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': decodeURIComponent(token), 'X-VP-Origin': 'web' },
      body: JSON.stringify({ metrics: metrics, tags: { appName: 'rosace-web', version: '0.1.0' } }),
    }).catch(function () {});
  }
  if (document.readyState === 'complete') send(); else addEventListener('load', send);
})();
