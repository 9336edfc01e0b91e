// <travel-calendar days='{"2027-03-06":{…}}' selected="2027-03-06" locale="fr-FR" currency="EUR" month="2027-03">
// The price calendar of a travel's departure days as a custom element. Every input is an
// attribute (JSON for `days`) and a JS property; the page sets properties after hydration.
// Sends `travel-calendar-select` ({ date }) when the user picks a day. Inside a form, with a
// `name` attribute, it also sets the form's field of that name (the radio of that day, or a
// hidden field) and sends `change` from it, as a user's pick in the form would: the form's
// own handling (the enhancement script) takes it from there.
import stylesheet from './travel-calendar.css?inline';
import { TravelCalendar } from './TravelCalendar';
import { ReactWidgetElement, isRecord, parseJson } from '../travel-shared/element';
import { resolveLocale } from '../travel-shared/i18n';
import type { CalendarDays } from '../travel-shared/rules';

export const TAG_NAME = 'travel-calendar';

/** Keeps the entries that look like calendar days. */
function toDays(value: unknown): CalendarDays {
  if (!isRecord(value)) return {};
  const days: CalendarDays = {};
  for (const [date, day] of Object.entries(value)) {
    if (isRecord(day) && typeof day.price === 'number') days[date] = day as unknown as CalendarDays[string];
  }
  return days;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export class TravelCalendarElement extends ReactWidgetElement {
  static observedAttributes = ['days', 'selected', 'locale', 'currency', 'month'];

  protected readonly css = stylesheet;
  protected readonly propertyNames = ['days', 'selected', 'locale', 'currency', 'month'] as const;

  private _days: CalendarDays = {};
  private _selected = '';
  private _locale = '';
  private _currency = '';
  private _month = '';

  protected readAttribute(name: string, value: string | null): void {
    switch (name) {
      case 'days':
        this._days = toDays(parseJson(value, {}));
        break;
      case 'selected':
        this._selected = text(value);
        break;
      case 'locale':
        this._locale = text(value);
        break;
      case 'currency':
        this._currency = text(value);
        break;
      case 'month':
        this._month = text(value);
        break;
    }
  }

  /** Departure days keyed by `YYYY-MM-DD` (also accepts their JSON text). */
  get days(): CalendarDays {
    return this._days;
  }
  set days(value: CalendarDays | string | null | undefined) {
    this._days = toDays(typeof value === 'string' ? parseJson(value, {}) : value);
    this.update();
  }

  /** The chosen day (`YYYY-MM-DD`), or empty; follows the user's picks. */
  get selected(): string {
    return this._selected;
  }
  set selected(value: string | null | undefined) {
    this._selected = text(value);
    this.update();
  }

  get locale(): string {
    return this._locale;
  }
  set locale(value: string | null | undefined) {
    this._locale = text(value);
    this.update();
  }

  get currency(): string {
    return this._currency;
  }
  set currency(value: string | null | undefined) {
    this._currency = text(value);
    this.update();
  }

  /** `YYYY-MM`: the month shown first (optional). */
  get month(): string {
    return this._month;
  }
  set month(value: string | null | undefined) {
    this._month = text(value);
    this.update();
  }

  private setFormField(date: string): void {
    const name = this.getAttribute('name');
    const form = this.closest('form');
    if (!name || !form) return;
    const controls = [...form.elements].filter((el): el is HTMLInputElement => el instanceof HTMLInputElement && el.name === name);
    let field = controls.find((el) => el.type === 'radio' && el.value === date);
    if (field) field.checked = true;
    else {
      field = controls.find((el) => el.type === 'hidden') ?? document.createElement('input');
      field.type = 'hidden';
      field.name = name;
      field.value = date;
      if (!field.isConnected) form.appendChild(field);
    }
    field.dispatchEvent(new Event('change', { bubbles: true }));
  }

  protected renderWidget() {
    return (
      <TravelCalendar
        days={this._days}
        selected={this._selected}
        locale={resolveLocale(this._locale)}
        currency={this._currency.toUpperCase() || 'EUR'}
        month={this._month}
        onSelect={(date) => {
          this._selected = date;
          this.update();
          this.setFormField(date);
        }}
      />
    );
  }
}

if (!customElements.get(TAG_NAME)) {
  customElements.define(TAG_NAME, TravelCalendarElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'travel-calendar': TravelCalendarElement;
  }
}
