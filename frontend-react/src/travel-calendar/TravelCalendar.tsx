// The price calendar of a travel's departure days. react-day-picker draws the grid (keyboard,
// roles, month navigation); this adds the price of each day, the lowest and sold-out marks,
// labels in the page's language, and the `travel-calendar-select` event.
import { createContext, useContext, useMemo, useRef, useState } from 'react';
import {
  DayButton,
  DayPicker,
  type DayButtonProps,
  type Formatters,
  type Labels,
  type Modifiers,
} from 'react-day-picker';
import type { CalendarSelect } from '../generated/CalendarSelect';
import { capitalize, dateFormat, formatPrice } from '../travel-shared/format';
import { useTranslate, type Translate } from '../travel-shared/i18n';
import { formatIsoDate, isSelectableDay, parseIsoDate, type CalendarDays } from '../travel-shared/rules';

export const SELECT_EVENT = 'travel-calendar-select';

export interface TravelCalendarProps {
  /** Departure days keyed by `YYYY-MM-DD`. */
  days: CalendarDays;
  /** The chosen day (`YYYY-MM-DD`) or empty. The calendar follows it when it changes. */
  selected?: string;
  /** A BCP 47 locale (prices, month and day names). */
  locale: string;
  /** ISO 4217 code of the prices. */
  currency: string;
  /** `YYYY-MM`: the month shown first. */
  month?: string;
  /** Called with the day the user picks (after the DOM event is sent). */
  onSelect?: (date: string) => void;
}

/** Local midnight of a `YYYY-MM-DD` (react-day-picker works in local time), or null. */
function toDate(iso: string | undefined): Date | null {
  const d = iso ? parseIsoDate(iso) : null;
  return d ? new Date(d.year, d.month - 1, d.day) : null;
}

function toIso(date: Date): string {
  return formatIsoDate({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
}

function monthStart(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), 1);
}

/** `YYYY-MM` → first day of that month, or null. */
function parseMonth(month: string | undefined): Date | null {
  return month && /^\d{4}-\d{2}$/.test(month) ? toDate(`${month}-01`) : null;
}

/** The month shown first: `month`, else the selected day's, else the first bookable day's
 * (else the first departure's, else the current month). */
function initialMonth(days: CalendarDays, selected: string | undefined, month: string | undefined): Date {
  const explicit = parseMonth(month) ?? toDate(selected);
  if (explicit) return monthStart(explicit);
  const dates = Object.keys(days).filter((d) => parseIsoDate(d)).sort();
  const first = dates.find((d) => isSelectableDay(days, d)) ?? dates[0];
  return monthStart(toDate(first) ?? new Date());
}

interface DayInfo {
  days: CalendarDays;
  price: (cents: number) => string;
  t: Translate;
}

const DayInfoContext = createContext<DayInfo | null>(null);

/** react-day-picker's day button (it keeps the roving focus) with the day's price under the number. */
function PriceDayButton(props: DayButtonProps) {
  const info = useContext(DayInfoContext);
  const { children, ...rest } = props;
  const day = info?.days[props.day.isoDate];
  return (
    <DayButton {...rest}>
      <span className="tc-number">{children}</span>
      {day && info && (
        <span className="tc-price" aria-hidden="true">
          {day.isOutOfStock ? info.t('travel.calendar.sold_out') : info.price(day.price)}
        </span>
      )}
    </DayButton>
  );
}

const COMPONENTS = { DayButton: PriceDayButton };

const CLASS_NAMES = { departure: 'tc-departure', lowest: 'tc-lowest', soldOut: 'tc-sold-out' };

export function TravelCalendar({ days, selected = '', locale, currency, month, onSelect }: TravelCalendarProps) {
  const t = useTranslate(locale, 'travel.calendar.');
  const rootRef = useRef<HTMLDivElement>(null);

  // The chosen day: the user's pick, replaced by `selected` whenever that input changes.
  const [picked, setPicked] = useState(selected);
  const [shown, setShown] = useState(() => initialMonth(days, selected, month));
  const [inputs, setInputs] = useState({ selected, month, days });
  if (inputs.selected !== selected || inputs.month !== month || inputs.days !== days) {
    setInputs({ selected, month, days });
    if (inputs.selected !== selected) setPicked(selected);
    const follow =
      (inputs.month !== month && parseMonth(month)) || (inputs.selected !== selected && toDate(selected));
    if (follow) setShown(monthStart(follow));
    else if (inputs.days !== days && !toDate(picked) && !parseMonth(month)) setShown(initialMonth(days, '', ''));
  }

  const info = useMemo<DayInfo>(
    () => ({ days, price: (cents) => formatPrice(cents, locale, currency), t }),
    [days, locale, currency, t],
  );

  const dayLabel = useMemo(() => {
    const long = dateFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    return (date: Date, selectedDay: boolean): string => {
      const day = days[toIso(date)];
      const parts = [long.format(date)];
      if (!day) parts.push(t('travel.calendar.no_departure'));
      else {
        parts.push(t('travel.calendar.price', { price: info.price(day.price) }));
        if (day.isOutOfStock) parts.push(t('travel.calendar.sold_out'));
        else if (day.isLowest) parts.push(t('travel.calendar.lowest'));
      }
      if (selectedDay) parts.push(t('travel.calendar.selected'));
      return parts.join(', ');
    };
  }, [days, locale, t, info]);

  const labels = useMemo<Partial<Labels>>(() => {
    const monthYear = dateFormat(locale, { month: 'long', year: 'numeric' });
    const weekday = dateFormat(locale, { weekday: 'long' });
    return {
      labelDayButton: (date: Date, modifiers: Modifiers) => dayLabel(date, modifiers.selected),
      labelGridcell: (date: Date) => dayLabel(date, false),
      labelGrid: (date: Date) => capitalize(monthYear.format(date), locale),
      labelNav: () => t('travel.calendar.nav'),
      labelNext: () => t('travel.calendar.next'),
      labelPrevious: () => t('travel.calendar.previous'),
      labelWeekday: (date: Date) => weekday.format(date),
    };
  }, [locale, t, dayLabel]);

  const formatters = useMemo<Partial<Formatters>>(() => {
    const monthYear = dateFormat(locale, { month: 'long', year: 'numeric' });
    const weekday = dateFormat(locale, { weekday: 'short' });
    return {
      formatCaption: (date: Date) => capitalize(monthYear.format(date), locale),
      formatWeekdayName: (date: Date) => weekday.format(date),
    };
  }, [locale]);

  const modifiers = useMemo(
    () => ({
      departure: (date: Date) => Object.hasOwn(days, toIso(date)),
      lowest: (date: Date) => days[toIso(date)]?.isLowest === true,
      soldOut: (date: Date) => days[toIso(date)]?.isOutOfStock === true,
    }),
    [days],
  );
  const disabled = useMemo(() => (date: Date) => !isSelectableDay(days, toIso(date)), [days]);

  // Navigation spans the departures' months (and the month shown, wherever it is).
  const [startMonth, endMonth] = useMemo(() => {
    const dates = Object.keys(days)
      .map((d) => toDate(d))
      .filter((d): d is Date => d !== null)
      .map(monthStart)
      .sort((a, b) => a.getTime() - b.getTime());
    if (dates.length === 0) return [undefined, undefined];
    return [dates[0], dates[dates.length - 1]];
  }, [days]);
  const inRange = (m: Date) => ({
    start: startMonth && startMonth < m ? startMonth : m,
    end: endMonth && endMonth > m ? endMonth : m,
  });
  const range = inRange(shown);

  const hasLowest = Object.values(days).some((d) => d.isLowest && !d.isOutOfStock);
  const hasSoldOut = Object.values(days).some((d) => d.isOutOfStock);
  const isEmpty = !Object.keys(days).some((d) => isSelectableDay(days, d));

  const choose = (date: Date | undefined) => {
    if (!date) return;
    const iso = toIso(date);
    if (!isSelectableDay(days, iso)) return;
    setPicked(iso);
    const detail: CalendarSelect = { date: iso };
    rootRef.current?.dispatchEvent(new CustomEvent(SELECT_EVENT, { detail, bubbles: true, composed: true }));
    onSelect?.(iso);
  };

  return (
    <div className="tc" ref={rootRef} role="group" aria-label={t('travel.calendar.label')}>
      <DayInfoContext.Provider value={info}>
        <DayPicker
          mode="single"
          required
          selected={toDate(picked) ?? undefined}
          onSelect={choose}
          month={shown}
          onMonthChange={(m) => setShown(monthStart(m))}
          startMonth={range.start}
          endMonth={range.end}
          disabled={disabled}
          modifiers={modifiers}
          modifiersClassNames={CLASS_NAMES}
          components={COMPONENTS}
          labels={labels}
          formatters={formatters}
          lang={locale}
          weekStartsOn={1}
        />
      </DayInfoContext.Provider>
      <ul className="tc-legend">
        <li className="tc-legend-note">{t('travel.calendar.per_person')}</li>
        {hasLowest && <li className="tc-legend-lowest">{t('travel.calendar.lowest')}</li>}
        {hasSoldOut && <li className="tc-legend-sold-out">{t('travel.calendar.sold_out')}</li>}
      </ul>
      {isEmpty && <p className="tc-empty">{t('travel.calendar.empty')}</p>}
    </div>
  );
}
