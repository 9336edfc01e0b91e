import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CalendarSelect } from '../generated/CalendarSelect';
import { DAYS } from './fixtures';
import { TAG_NAME, TravelCalendarElement } from './index';

const reactAct = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let previousActEnv: boolean | undefined;

beforeEach(() => {
  // The element renders with its own React root, outside act(): that is the real usage.
  previousActEnv = reactAct.IS_REACT_ACT_ENVIRONMENT;
  reactAct.IS_REACT_ACT_ENVIRONMENT = false;
});

afterEach(() => {
  reactAct.IS_REACT_ACT_ENVIRONMENT = previousActEnv;
});

const inShadow = (el: Element, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector);
const dayButton = (el: Element, date: string) => inShadow(el, `[data-day="${date}"] button`) as HTMLButtonElement | null;
const selectedDay = (el: Element) => inShadow(el, '[aria-selected="true"]')?.dataset.day;
const caption = (el: Element) => inShadow(el, '.rdp-caption_label')?.textContent;

describe('<travel-calendar>', () => {
  it('is defined once, and importing the module again does not redefine it', async () => {
    expect(customElements.get(TAG_NAME)).toBe(TravelCalendarElement);
    await import('./index');
    expect(customElements.get(TAG_NAME)).toBe(TravelCalendarElement);
  });

  it('reads its inputs from attributes (days as JSON) into an open shadow root', async () => {
    const el = document.createElement('travel-calendar');
    el.setAttribute('days', JSON.stringify(DAYS));
    el.setAttribute('selected', '2027-03-20');
    el.setAttribute('locale', 'de-DE');
    el.setAttribute('currency', 'EUR');
    document.body.append(el);

    expect(el.shadowRoot?.mode).toBe('open');
    await waitFor(() => expect(dayButton(el, '2027-03-06')?.textContent).toMatch(/^6599\s€$/));
    expect(caption(el)).toBe('März 2027');
    expect(selectedDay(el)).toBe('2027-03-20');
    expect(el.childNodes).toHaveLength(0);
    expect(inShadow(el, 'style')?.textContent).toContain('var(--brand-primary, #d6336c)');

    // Attribute changes follow.
    el.setAttribute('selected', '2027-04-03');
    await waitFor(() => expect(selectedDay(el)).toBe('2027-04-03'));
    expect(caption(el)).toBe('April 2027');
    el.setAttribute('month', '2027-03');
    await waitFor(() => expect(caption(el)).toBe('März 2027'));
    expect(el.days).toEqual(DAYS);
  });

  it('reads its inputs from JS properties, the way the page sets them after hydration', async () => {
    const el = document.createElement('travel-calendar');
    document.body.append(el);
    el.locale = 'fr-FR';
    el.currency = 'EUR';
    el.days = DAYS;
    await waitFor(() => expect(dayButton(el, '2027-03-06')?.textContent).toMatch(/^6599\s€$/));
    el.selected = '2027-04-03';
    await waitFor(() => expect(selectedDay(el)).toBe('2027-04-03'));
    expect(caption(el)).toBe('Avril 2027');
    el.selected = '';
    await waitFor(() => expect(selectedDay(el)).toBeUndefined());
    expect(el.selected).toBe('');
  });

  it('keeps properties set before the element was upgraded', async () => {
    const early = document.implementation.createHTMLDocument('').createElement('travel-calendar') as TravelCalendarElement;
    expect(early).not.toBeInstanceOf(TravelCalendarElement);
    Object.assign(early, { days: DAYS, selected: '2027-03-21', locale: 'fr-FR' });
    document.body.append(early);
    const el = document.body.lastElementChild as TravelCalendarElement;
    expect(el).toBeInstanceOf(TravelCalendarElement);
    await waitFor(() => expect(selectedDay(el)).toBe('2027-03-21'));
    expect(el.days).toEqual(DAYS);
  });

  it('sends travel-calendar-select out of the shadow root when a day is picked', async () => {
    const seen: CustomEvent<CalendarSelect>[] = [];
    const onEvent = (e: Event) => seen.push(e as CustomEvent<CalendarSelect>);
    document.addEventListener('travel-calendar-select', onEvent);
    try {
      const el = document.createElement('travel-calendar');
      el.days = DAYS;
      el.locale = 'fr-FR';
      document.body.append(el);
      await waitFor(() => expect(dayButton(el, '2027-03-21')).not.toBeNull());
      fireEvent.click(dayButton(el, '2027-03-13')!); // sold out
      fireEvent.click(dayButton(el, '2027-03-21')!);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.detail).toEqual({ date: '2027-03-21' });
      expect(seen[0]!.composed).toBe(true);
      expect(seen[0]!.target).toBe(el); // retargeted to the host
      expect(el.selected).toBe('2027-03-21');
      await waitFor(() => expect(selectedDay(el)).toBe('2027-03-21'));
    } finally {
      document.removeEventListener('travel-calendar-select', onEvent);
    }
  });

  it('inside a form, with a name, checks the radio of the day picked and sends change from it', async () => {
    const form = document.createElement('form');
    form.innerHTML =
      '<input type="radio" name="checkin" value="2027-03-06" checked><input type="radio" name="checkin" value="2027-03-21">';
    const el = document.createElement('travel-calendar');
    el.setAttribute('name', 'checkin');
    el.days = DAYS;
    el.locale = 'fr-FR';
    form.append(el);
    document.body.append(form);
    const changed: string[] = [];
    form.addEventListener('change', (e) => changed.push((e.target as HTMLInputElement).value));
    await waitFor(() => expect(dayButton(el, '2027-03-21')).not.toBeNull());
    fireEvent.click(dayButton(el, '2027-03-21')!);
    expect(new FormData(form).get('checkin')).toBe('2027-03-21');
    expect(changed).toEqual(['2027-03-21']);
  });

  it('inside a form without a radio of that day, sets a hidden field of its name', async () => {
    const form = document.createElement('form');
    const el = document.createElement('travel-calendar');
    el.setAttribute('name', 'checkin');
    el.days = DAYS;
    form.append(el);
    document.body.append(form);
    await waitFor(() => expect(dayButton(el, '2027-03-21')).not.toBeNull());
    fireEvent.click(dayButton(el, '2027-03-21')!);
    fireEvent.click(dayButton(el, '2027-03-06')!);
    expect(new FormData(form).getAll('checkin')).toEqual(['2027-03-06']);
  });

  it('ignores a days attribute that is not JSON', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = document.createElement('travel-calendar');
    el.setAttribute('days', '{broken');
    document.body.append(el);
    await waitFor(() => expect(inShadow(el, '.tc-empty')).not.toBeNull());
    expect(el.days).toEqual({});
    expect(warn).toHaveBeenCalledWith('Ignoring an attribute that is not valid JSON', '{broken');
  });

  it('unmounts when removed', async () => {
    const el = document.createElement('travel-calendar');
    el.days = DAYS;
    document.body.append(el);
    await waitFor(() => expect(inShadow(el, '.tc')).not.toBeNull());
    el.remove();
    await waitFor(() => expect(inShadow(el, '.tc')).toBeNull());
  });
});
