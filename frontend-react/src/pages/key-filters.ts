// Key filters of form fields (spec 000 §5, 001 §5): a field marked `data-key-filter`
// takes only its characters while the member types or pastes (the server checks the same
// rule: app/src/text/keys.rs, the twin of `allows`), and an address phone is grouped as the
// site writes it (`data-phone-first` / `data-phone-rest` from the Rust rule; `groupPhone`
// is the twin of address::rules::phone::group_by). Both twins read the vector files the
// Rust tests read (docs/frontend.md lists the twins).

export type KeyFilter = 'name' | 'latin-name' | 'digits' | 'date' | 'phone';

const ALPHABETIC = /^\p{Alphabetic}$/u;
const DIGIT = /^[0-9]$/;

/** Letters of the Latin script (accents, ß, æ, ø, ł included). */
function latinLetter(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  return ALPHABETIC.test(c) && (cp < 0x250 || (cp >= 0x1e00 && cp <= 0x1eff));
}

/** Whether the filter takes one character (a code point). */
export function allows(filter: KeyFilter, c: string): boolean {
  switch (filter) {
    case 'name':
      return ALPHABETIC.test(c) || c === ' ';
    case 'latin-name':
      return latinLetter(c) || [' ', "'", '’', '-', '.'].includes(c);
    case 'digits':
      return DIGIT.test(c);
    case 'date':
      return DIGIT.test(c) || c === '/' || c === '.';
    case 'phone':
      return DIGIT.test(c) || ['+', ' ', '.', '-', '/', '(', ')'].includes(c);
  }
}

/** Digits in a first group of `first`, then groups of `rest` (null: the rest as one). */
export function groupPhone(digits: string, first: number, rest: number | null): string {
  const chars = [...digits];
  const groups: string[] = [];
  let at = 0;
  let size = first;
  while (at < chars.length) {
    groups.push(chars.slice(at, at + size).join(''));
    at += size;
    size = rest ?? Number.MAX_SAFE_INTEGER;
  }
  return groups.join(' ');
}

const FILTERS: readonly string[] = ['name', 'latin-name', 'digits', 'date', 'phone'];
function filterOf(el: EventTarget | null): KeyFilter | null {
  const name = el instanceof HTMLInputElement ? el.dataset.keyFilter : undefined;
  return name && FILTERS.includes(name) ? (name as KeyFilter) : null;
}

/** A phone typed at its end is regrouped; one edited in the middle is left as typed. */
function formatPhone(input: HTMLInputElement): void {
  const first = Number(input.dataset.phoneFirst);
  if (!first) return;
  const compact = input.value.replace(/[\s./-]/g, '');
  if (!/^[0-9]+$/.test(compact) || input.selectionStart !== input.value.length) return;
  const rest = Number(input.dataset.phoneRest);
  const next = groupPhone(compact, first, rest > 0 ? rest : null);
  if (next !== input.value) input.value = next;
}

export function start(): void {
  document.addEventListener('beforeinput', (ev) => {
    const filter = filterOf(ev.target);
    if (filter && ev.data != null && ![...ev.data].every((c) => allows(filter, c))) ev.preventDefault();
  });
  // What arrives without a beforeinput we can refuse (some input methods, drops): kept
  // to the characters the field takes.
  document.addEventListener('input', (ev) => {
    const input = ev.target;
    const filter = filterOf(input);
    if (!filter || !(input instanceof HTMLInputElement)) return;
    const kept = [...input.value].filter((c) => allows(filter, c)).join('');
    if (kept !== input.value) input.value = kept;
    if (input.dataset.phoneFirst) formatPhone(input);
  });
}
