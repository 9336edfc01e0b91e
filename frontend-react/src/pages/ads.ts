// Advertising loader (spec 000 §1, §4 "Advertising blocker"). On the page only when the
// visitor accepted the behaviour category (C0004), see app/src/onboarding/ui/layer.rs. It
// loads the advertising partner's script (its address is the script tag's
// `data-ads-src`); when that fails (an ad blocker, a network error), the blocker cookie
// `adBlocker` is set for a month, the filtered-banner marker `filteredBanner`
// (localStorage) is written, and the sponsored banners are hidden (`html.ads-blocked`);
// the shop keeps working. When it loads, the cookie and the marker are cleared and the
// banners shown again.
export {};
const COOKIE = 'adBlocker';
const MARKER = 'filteredBanner';
const MONTH_SECS = 30 * 24 * 3600;
const root = document.documentElement;
const secure = location.protocol === 'https:' ? '; Secure' : '';

const hasCookie = (name: string) => document.cookie.split(/;\s*/).some((c) => c.startsWith(`${name}=`));

function marker(set: boolean): void {
  try {
    if (set) localStorage.setItem(MARKER, '1');
    else localStorage.removeItem(MARKER);
  } catch {
    // Storage refused: the cookie is enough.
  }
}

function blocked(): void {
  document.cookie = `${COOKIE}=1; Max-Age=${MONTH_SECS}; Path=/; SameSite=Lax${secure}`;
  marker(true);
  root.classList.add('ads-blocked');
  root.setAttribute('data-ads', 'blocked');
}

function loaded(): void {
  document.cookie = `${COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${secure}`;
  marker(false);
  root.classList.remove('ads-blocked');
  root.setAttribute('data-ads', 'loaded');
}

const src = document.querySelector<HTMLScriptElement>('script[data-ads-src]')?.dataset.adsSrc;
if (src) {
  // Known to be blocked: sponsored banners stay hidden while the script is tried again.
  if (hasCookie(COOKIE)) root.classList.add('ads-blocked');
  root.setAttribute('data-ads', 'loading');
  const script = document.createElement('script');
  // The demo partner's script is one of our modules; a real partner's may be a classic
  // script, which loads the same way.
  script.type = 'module';
  script.src = src;
  script.async = true;
  script.onload = loaded;
  script.onerror = blocked;
  document.head.appendChild(script);
}
