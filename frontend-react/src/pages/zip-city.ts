// The city offered from the zip code (spec 000 §7 "cities by zip code"). A
// zip field marked `data-city-from-zip="<city input id>"` (and, where the member chooses
// the country, `data-country-from="<select id>"`) asks the server for the places of the
// code when the member has typed it: they fill the city field's <datalist>, and a code
// with one place fills an empty city. The server looks the code up (server/src/rest/
// cities.rs); nothing here knows a country's codes. Without this script the member types
// the city, as before.
import type { CitiesByZipCode } from '../generated/CitiesByZipCode';

const TIMEOUT_MS = 10_000;
/** Shorter codes are not looked up while typing (every country of the shop has four or more
 * characters); leaving the field looks up whatever is there. */
const TYPED_ENOUGH = 4;

/** Cities the script put in a field: replaced by the next code's, unlike the member's own. */
const filled = new WeakMap<HTMLInputElement, string>();
const pending = new WeakMap<HTMLInputElement, AbortController>();

/** The places of a zip code, or none when the call fails (the member then types the city). */
export async function citiesOf(zip: string, country: string | null, signal?: AbortSignal): Promise<string[]> {
  const params = new URLSearchParams({ zipCode: zip });
  if (country) params.set('country', country);
  try {
    const resp = await fetch(`/api/members/v1/cities?${params}`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      signal,
    });
    if (!resp.ok) return [];
    const body = (await resp.json()) as CitiesByZipCode;
    return Array.isArray(body.cities) ? body.cities : [];
  } catch {
    return [];
  }
}

/** Offers `cities` in the city field's list; one place fills the city unless the member wrote their own. */
export function offer(city: HTMLInputElement, cities: string[]): void {
  const list = city.list;
  if (list) list.replaceChildren(...cities.map((c) => Object.assign(document.createElement('option'), { value: c })));
  const ours = filled.get(city);
  const free = city.value.trim() === '' || (ours !== undefined && city.value === ours);
  if (!free) return;
  if (cities.length === 1) {
    city.value = cities[0];
    filled.set(city, cities[0]);
  } else if (ours !== undefined) {
    // The code changed to one with several places (or none): the previous fill no longer holds.
    city.value = '';
    filled.delete(city);
  }
}

async function lookUp(zip: HTMLInputElement, leaving: boolean): Promise<void> {
  const city = document.getElementById(zip.dataset.cityFromZip ?? '');
  if (!(city instanceof HTMLInputElement)) return;
  const value = zip.value.trim();
  if (!value || (!leaving && value.replace(/\s/g, '').length < TYPED_ENOUGH)) return;
  pending.get(zip)?.abort();
  const controller = new AbortController();
  pending.set(zip, controller);
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const countryField = document.getElementById(zip.dataset.countryFrom ?? '');
  const country = countryField instanceof HTMLSelectElement ? countryField.value : null;
  const cities = await citiesOf(value, country, controller.signal);
  clearTimeout(timer);
  // A later lookup (the member typed on) wins.
  if (pending.get(zip) !== controller) return;
  pending.delete(zip);
  if (zip.value.trim() === value) offer(city, cities);
}

function zipField(target: EventTarget | null): HTMLInputElement | null {
  return target instanceof HTMLInputElement && target.dataset.cityFromZip ? target : null;
}

/** Codes typed before this script arrived (it loads after the page, and a quick member can
 * be in the field by then): the field being typed in is looked up as if typed, and a left
 * one whose city is still empty as if left. A pre-filled city is never asked about. */
export function catchUp(): void {
  for (const zip of document.querySelectorAll<HTMLInputElement>('input[data-city-from-zip]')) {
    if (!zip.value.trim()) continue;
    const city = document.getElementById(zip.dataset.cityFromZip ?? '');
    const typing = document.activeElement === zip;
    if (typing) void lookUp(zip, false);
    else if (city instanceof HTMLInputElement && !city.value.trim()) void lookUp(zip, true);
  }
}

export function start(): void {
  catchUp();
  document.addEventListener('input', (ev) => {
    const zip = zipField(ev.target);
    if (zip) void lookUp(zip, false);
  });
  document.addEventListener('change', (ev) => {
    const zip = zipField(ev.target);
    if (zip) void lookUp(zip, true);
  });
}
