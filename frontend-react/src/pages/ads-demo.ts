// The demo's advertising partner script (a local file, never a third party): it marks each
// sponsored banner with a small "ad partner" label, visible and harmless. A real shop puts
// its partner's script in the loader's `data-ads-src` instead. It keeps a fixed address
// (vite.pages.config.ts), as a partner's script has.

const captions = document.querySelectorAll('[data-banner-kind="MediaAdsBanner"] .tile__caption');
for (const caption of captions) {
  if (caption.querySelector('.tile__ad-partner')) continue;
  const label = document.createElement('span');
  label.className = 'tile__ad-partner';
  label.setAttribute('data-testid', 'ad-partner');
  label.textContent = 'Rosace Ads';
  caption.appendChild(label);
}

export {};
