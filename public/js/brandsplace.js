// The brands place (/brandsplace): the search is a GET form that the server answers
// without scripts (app/src/brands); this filters the list in place while typing, with the
// same rule as app/src/brands/rules.rs `matches` (every word of the query in the name,
// accent- and case-blind), hides letters left empty, and updates the status line from
// the page's own templates (data-count / data-found): the script writes no wording.
(() => {
  const input = document.querySelector('[data-brands-filter]');
  const status = document.querySelector('[data-testid="brandsplace-status"]');
  if (!input || !status) return;
  const fold = (s) =>
    s
      .toLowerCase()
      .replace(/æ/g, 'ae')
      .replace(/œ/g, 'oe')
      .replace(/ß/g, 'ss')
      .replace(/ø/g, 'o')
      .replace(/ł/g, 'l')
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '');
  const rows = [...document.querySelectorAll('[data-testid="place-brand"]')];
  const sections = [...document.querySelectorAll('[data-letter-section]')];
  const empty = document.querySelector('[data-testid="brandsplace-empty"]');
  const indexLinks = [...document.querySelectorAll('.brandsplace__index a[data-letter]')];
  const filter = () => {
    const words = fold(input.value.trim()).split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const row of rows) {
      const name = fold(row.dataset.name || '');
      const on = words.every((w) => name.includes(w));
      row.hidden = !on;
      if (on) shown += 1;
    }
    const visible = new Set();
    for (const section of sections) {
      const any = section.querySelector('[data-testid="place-brand"]:not([hidden])');
      section.hidden = !any;
      if (any) visible.add(section.dataset.letterSection);
    }
    for (const a of indexLinks) {
      a.classList.toggle('is-empty', !visible.has(a.dataset.letter));
    }
    if (empty) empty.hidden = shown > 0;
    const template = words.length ? status.dataset.found : status.dataset.count;
    if (template) {
      status.textContent = template.replace('{n}', String(shown)).replace('{q}', input.value.trim());
    }
    // Keep the address in step, so a reload or a shared link shows the same list.
    const url = new URL(window.location.href);
    if (input.value.trim()) url.searchParams.set('q', input.value.trim());
    else url.searchParams.delete('q');
    url.searchParams.delete('notice');
    url.searchParams.delete('error');
    window.history.replaceState(window.history.state, '', url);
    // Forms keep the search across a follow / unfollow.
    for (const q of document.querySelectorAll('.brandsplace__alert input[name="q"]')) {
      q.value = input.value.trim();
    }
  };
  input.addEventListener('input', filter);
})();
