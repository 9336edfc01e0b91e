// A polite live region: what changed without a page load is read out. The page may place
// its own (`data-enhance-live`, beside the region it speaks for); else one is added.
const ID = 'rosace-live';

export function announce(text: string): void {
  const message = text.replace(/\s+/g, ' ').trim();
  if (!message) return;
  let region = document.querySelector<HTMLElement>('[data-enhance-live]') ?? document.getElementById(ID);
  if (!region) {
    region = document.createElement('div');
    region.id = ID;
    region.className = 'visually-hidden';
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    document.body.appendChild(region);
  }
  // Emptied first: the same text twice is still a change a screen reader reads.
  region.textContent = '';
  const target = region;
  requestAnimationFrame(() => {
    target.textContent = message;
  });
}
