/* The demo's advertising script (a local file, never a third party): it marks each
   sponsored banner with a small "ad partner" label, visible and harmless. A real shop
   replaces it with its advertising partner's script (spec 000 §1). */
(function () {
  'use strict';
  var tiles = document.querySelectorAll('[data-banner-kind="MediaAdsBanner"] .tile__caption');
  for (var i = 0; i < tiles.length; i++) {
    if (tiles[i].querySelector('.tile__ad-partner')) continue;
    var label = document.createElement('span');
    label.className = 'tile__ad-partner';
    label.setAttribute('data-testid', 'ad-partner');
    label.textContent = 'Rosace Ads';
    tiles[i].appendChild(label);
  }
  window.__rosaceAds = { loaded: true, sponsored: tiles.length };
})();
