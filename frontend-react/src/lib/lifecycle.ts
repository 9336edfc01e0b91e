import { NAVIGATED } from './events';

/**
 * Runs `init` for the page now (once the document is parsed) and again after every in-app
 * navigation. A module runs once per document, so per-page work goes through here and
 * document-wide listeners are added once, at the module's top level.
 */
export function onPage(init: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init, { once: true });
  else init();
  document.addEventListener(NAVIGATED, init);
}
