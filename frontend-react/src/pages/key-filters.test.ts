import { describe, expect, it } from 'vitest';
// The shared vectors: app/tests/rule_vectors.rs and app/src/address/rules/phone.rs read
// the same files.
import filters from '../../../app/tests/vectors/key_filters.json';
import phones from '../../../app/tests/vectors/phone_groups.json';
import { allows, groupPhone, start, type KeyFilter } from './key-filters';

describe('key filters (twin of text::keys::KeyFilter)', () => {
  it('has a case per filter', () => {
    expect(filters.cases.map((c) => c.filter).sort()).toEqual(['date', 'digits', 'latin-name', 'name', 'phone']);
  });
  for (const c of filters.cases) {
    it(`${c.filter} takes what it takes`, () => {
      for (const ch of c.allowed) expect(allows(c.filter as KeyFilter, ch), `${c.filter} ${ch}`).toBe(true);
      for (const ch of c.refused) expect(allows(c.filter as KeyFilter, ch), `${c.filter} ${ch}`).toBe(false);
    });
  }
  it('an address name refuses a Cyrillic letter the member types (the server would refuse it)', () => {
    start();
    document.body.innerHTML = '<input id="n" data-key-filter="latin-name">';
    const input = document.getElementById('n') as HTMLInputElement;
    const typed = new InputEvent('beforeinput', { data: 'Ж', cancelable: true, bubbles: true, inputType: 'insertText' });
    input.dispatchEvent(typed);
    expect(typed.defaultPrevented).toBe(true);
    const ok = new InputEvent('beforeinput', { data: 'Đ', cancelable: true, bubbles: true, inputType: 'insertText' });
    input.dispatchEvent(ok);
    expect(ok.defaultPrevented).toBe(false);
    // A paste is kept whole, for the server to name what it refuses (cutting it emptied
    // the field or changed the name unseen).
    const pasted = new InputEvent('beforeinput', { data: 'Жанна', cancelable: true, bubbles: true, inputType: 'insertFromPaste' });
    input.dispatchEvent(pasted);
    expect(pasted.defaultPrevented).toBe(false);
    input.value = 'Anna Жанна';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    expect(input.value).toBe('Anna Жанна');
  });
  it('a member name takes the hyphen and apostrophes of Jean-Pierre and N’Diaye, not digits', () => {
    start();
    document.body.innerHTML = '<input id="n" data-key-filter="name">';
    const input = document.getElementById('n') as HTMLInputElement;
    for (const [data, refused] of [['-', false], ["'", false], ['’', false], ['3', true]] as const) {
      const ev = new InputEvent('beforeinput', { data, cancelable: true, bubbles: true, inputType: 'insertText' });
      input.dispatchEvent(ev);
      expect(ev.defaultPrevented, data).toBe(refused);
    }
  });
});

describe('phone grouping (twin of address::rules::phone::group_by)', () => {
  for (const c of phones.cases) {
    it(`${c.digits || '(empty)'} by ${c.first}/${c.rest}`, () => {
      expect(groupPhone(c.digits, c.first, c.rest)).toBe(c.grouped);
    });
  }
});
