import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import de from '../../../app/locales/travel-widgets/de.json';
import fr from '../../../app/locales/travel-widgets/fr.json';
import type { CalendarSelect } from '../generated/CalendarSelect';
import { DAYS } from './fixtures';
import { SELECT_EVENT, TravelCalendar, type TravelCalendarProps } from './TravelCalendar';

const cell = (date: string) => document.querySelector<HTMLElement>(`[data-day="${date}"]`)!;
const dayButton = (date: string) => cell(date).querySelector('button')!;
const caption = () => document.querySelector('.rdp-caption_label')!.textContent;

function renderCalendar(props: Partial<TravelCalendarProps> = {}) {
  const all: TravelCalendarProps = { days: DAYS, locale: 'fr-FR', currency: 'EUR', ...props };
  const utils = render(<TravelCalendar {...all} />);
  return { ...utils, rerenderWith: (more: Partial<TravelCalendarProps>) => utils.rerender(<TravelCalendar {...all} {...more} />) };
}

function listen() {
  const seen: CustomEvent<CalendarSelect>[] = [];
  const onEvent = (e: Event) => seen.push(e as CustomEvent<CalendarSelect>);
  document.addEventListener(SELECT_EVENT, onEvent);
  afterEach(() => document.removeEventListener(SELECT_EVENT, onEvent));
  return seen;
}

/** What a browser does on Enter over a button: keydown, then (unless cancelled) a click. */
function pressEnter(el: Element) {
  if (fireEvent.keyDown(el, { key: 'Enter', code: 'Enter' })) fireEvent.click(el);
}

/** The page's translation table (`<script id="i18n">`) in `lang`. */
function pageTable(lang: string, table: Record<string, string>) {
  document.documentElement.lang = lang;
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = 'i18n';
  el.textContent = JSON.stringify(table);
  document.head.append(el);
  afterEach(() => {
    el.remove();
    document.documentElement.lang = '';
  });
}

describe('TravelCalendar', () => {
  it('shows the price of each departure day in the locale, whole prices without decimals', () => {
    renderCalendar();
    expect(caption()).toBe('Mars 2027');
    expect(within(cell('2027-03-06')).getByText(/^599\s€$/)).toBeTruthy();
    expect(within(cell('2027-03-20')).getByText(/^699,50\s€$/)).toBeTruthy();
    expect(cell('2027-03-13').textContent).toContain(fr['travel.calendar.sold_out']);
    // A day without departure has no price.
    expect(cell('2027-03-07').textContent).toBe('7');
    // Weeks start on Monday, weekday names in French.
    expect(document.querySelector('.rdp-weekday')?.textContent).toBe('lun.');
  });

  it('formats prices and months in German, with the labels of a German page', () => {
    pageTable('de', de);
    renderCalendar({ locale: 'de-DE', month: '2027-04' });
    expect(caption()).toBe('April 2027');
    expect(within(cell('2027-04-03')).getByText(/^1\.234\s€$/)).toBeTruthy();
    expect(dayButton('2027-04-03').getAttribute('aria-label')).toMatch(/^Samstag, 3\. April 2027, 1\.234\s€ pro Person$/);
    expect(screen.getByRole('button', { name: de['travel.calendar.next'] })).toBeTruthy();
    expect(screen.getByRole('group', { name: de['travel.calendar.label'] })).toBeTruthy();
  });

  it('marks the lowest day visibly and in its accessible name', () => {
    renderCalendar();
    expect(cell('2027-03-06').className).toContain('tc-lowest');
    expect(cell('2027-03-20').className).not.toContain('tc-lowest');
    expect(screen.getByRole('button', { name: /^samedi 6 mars 2027, 599\s€ par personne, prix le plus bas$/i })).toBe(
      dayButton('2027-03-06'),
    );
    expect(screen.getByText(fr['travel.calendar.lowest'], { selector: '.tc-legend li' })).toBeTruthy();
  });

  it('gives each day an accessible name with its date, price and availability', () => {
    renderCalendar();
    expect(dayButton('2027-03-20').getAttribute('aria-label')).toMatch(/^samedi 20 mars 2027, 699,50\s€ par personne$/);
    expect(dayButton('2027-03-13').getAttribute('aria-label')).toMatch(
      /^samedi 13 mars 2027, 649\s€ par personne, complet$/i,
    );
    expect(dayButton('2027-03-07').getAttribute('aria-label')).toBe('dimanche 7 mars 2027, Pas de départ');
    expect(screen.getByRole('grid', { name: 'Mars 2027' })).toBeTruthy();
  });

  it('disables sold-out days and days without departure: clicking them selects nothing', () => {
    const seen = listen();
    const onSelect = vi.fn();
    renderCalendar({ onSelect });
    for (const date of ['2027-03-13', '2027-03-07']) {
      expect(dayButton(date).disabled).toBe(true);
      fireEvent.click(dayButton(date));
      expect(cell(date).getAttribute('aria-selected')).toBeNull();
    }
    expect(dayButton('2027-03-20').disabled).toBe(false);
    expect(seen).toHaveLength(0);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('sends travel-calendar-select (bubbling, composed) with the date a click picks, and shows it selected', () => {
    const seen = listen();
    const onSelect = vi.fn();
    renderCalendar({ onSelect });
    fireEvent.click(dayButton('2027-03-20'));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.detail).toEqual({ date: '2027-03-20' } satisfies CalendarSelect);
    expect(seen[0]!.bubbles).toBe(true);
    expect(seen[0]!.composed).toBe(true);
    expect(onSelect).toHaveBeenCalledWith('2027-03-20');
    expect(cell('2027-03-20').getAttribute('aria-selected')).toBe('true');
    expect(dayButton('2027-03-20').getAttribute('aria-label')).toMatch(/, sélectionné$/);
  });

  it('moves with the arrow keys over bookable days (into the next month) and selects with Enter', () => {
    const seen = listen();
    renderCalendar();
    act(() => dayButton('2027-03-20').focus());
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(dayButton('2027-03-21'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(dayButton('2027-03-20'));
    // Disabled days are skipped, across the month's end.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(caption()).toBe('Avril 2027');
    expect(document.activeElement).toBe(dayButton('2027-04-03'));
    pressEnter(document.activeElement!);
    expect(seen.map((e) => e.detail.date)).toEqual(['2027-04-03']);
    expect(cell('2027-04-03').getAttribute('aria-selected')).toBe('true');
  });

  it('follows the selected input when it changes from outside, month included', () => {
    const seen = listen();
    const { rerenderWith } = renderCalendar({ selected: '2027-03-06' });
    expect(cell('2027-03-06').getAttribute('aria-selected')).toBe('true');
    rerenderWith({ selected: '2027-04-03' });
    expect(caption()).toBe('Avril 2027');
    expect(cell('2027-04-03').getAttribute('aria-selected')).toBe('true');
    rerenderWith({ selected: '' });
    expect(document.querySelector('[aria-selected="true"]')).toBeNull();
    // Changes from outside send no event.
    expect(seen).toHaveLength(0);
  });

  it('replaces a pick by a later selected input', () => {
    const { rerenderWith } = renderCalendar({ selected: '2027-03-06' });
    fireEvent.click(dayButton('2027-03-20'));
    rerenderWith({ selected: '2027-03-21' });
    expect(cell('2027-03-21').getAttribute('aria-selected')).toBe('true');
    expect(cell('2027-03-20').getAttribute('aria-selected')).toBeNull();
  });

  it('navigates months with the previous and next buttons, within the departures', () => {
    renderCalendar();
    const previous = screen.getByRole('button', { name: fr['travel.calendar.previous'] });
    const next = screen.getByRole('button', { name: fr['travel.calendar.next'] });
    expect(previous.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(next);
    expect(caption()).toBe('Avril 2027');
    expect(next.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(previous);
    expect(caption()).toBe('Mars 2027');
  });

  it('opens on the month input, else the selected day, else the first bookable day', () => {
    const { unmount } = renderCalendar({ month: '2027-04', selected: '2027-03-06' });
    expect(caption()).toBe('Avril 2027');
    unmount();
    const second = renderCalendar({ selected: '2027-04-03' });
    expect(caption()).toBe('Avril 2027');
    second.unmount();
    const soldOutFirst = { '2027-02-27': { ...DAYS['2027-03-13']! }, '2027-03-20': DAYS['2027-03-20']! };
    renderCalendar({ days: soldOutFirst });
    expect(caption()).toBe('Mars 2027');
  });

  it('says so when no day can be booked', () => {
    renderCalendar({ days: {} });
    expect(screen.getByText(fr['travel.calendar.empty'])).toBeTruthy();
  });
});
