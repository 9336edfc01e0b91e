// Key filters of form fields (spec 000 §5, 001 §5): a field marked `data-key-filter`
// takes only its characters while the member types or pastes (the server checks the same
// rule: app/src/text/keys.rs, the twin of `allows`), and an address phone is grouped as the
// site writes it (`data-phone-first` / `data-phone-rest` from the Rust rule; `groupPhone`
// is the twin of address::rules::phone::group_by). Both twins read the vector files the
// Rust tests read (docs/frontend.md lists the twins).

export type KeyFilter = 'name' | 'latin-name' | 'digits' | 'date' | 'phone';

const ALPHABETIC = /^\p{Alphabetic}$/u;
const DIGIT = /^[0-9]$/;

/** Letters of the Latin script (accents, ß, æ, ø, ł included), not µ, ª and º. */
function latinLetter(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  return (
    ALPHABETIC.test(c) && (cp < 0x250 || (cp >= 0x1e00 && cp <= 0x1eff)) && !['µ', 'ª', 'º'].includes(c)
  );
}

/** Whether the filter takes one character (a code point). */
export function allows(filter: KeyFilter, c: string): boolean {
  switch (filter) {
    case 'name':
      return ALPHABETIC.test(c) || [' ', '-', "'", '’'].includes(c);
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
  // Keys typed are filtered (spec 000 §5). A paste, a drop or an input method's text is
  // kept as it came: cutting it here emptied fields the server then called required, and
  // changed names unseen; the server names the field and what it does not take instead.
  document.addEventListener('beforeinput', (ev) => {
    const filter = filterOf(ev.target);
    if (filter && ev.inputType === 'insertText' && ev.data != null && ![...ev.data].every((c) => allows(filter, c))) {
      ev.preventDefault();
    }
  });
  document.addEventListener('input', (ev) => {
    const input = ev.target;
    if (filterOf(input) && input instanceof HTMLInputElement && input.dataset.phoneFirst) formatPhone(input);
  });
}
