import { waitFor } from '@testing-library/dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { catchUp, start } from './zip-city';

// The zip code's places against a server stub answering as GET /api/members/v1/cities does.

beforeAll(() => start());

function serve(table: Record<string, string[]>) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const params = new URL(url, location.href).searchParams;
      asked.push(`${params.get('zipCode')}|${params.get('country') ?? ''}`);
      const cities = table[params.get('zipCode') ?? ''] ?? [];
      return new Response(JSON.stringify({ zipCode: params.get('zipCode'), cities }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return asked;
}

function mount(country = '') {
  document.body.innerHTML = `<form>
    <input id="zip" data-city-from-zip="city" ${country ? 'data-country-from="country"' : ''}>
    <input id="city" list="city-options"><datalist id="city-options"></datalist>
    ${country ? `<select id="country"><option value="${country}" selected>${country}</option></select>` : ''}
  </form>`;
  return {
    zip: document.getElementById('zip') as HTMLInputElement,
    city: document.getElementById('city') as HTMLInputElement,
    options: () => [...document.querySelectorAll('#city-options option')].map((o) => (o as HTMLOptionElement).value),
  };
}

function type(zip: HTMLInputElement, value: string) {
  zip.value = value;
  zip.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('the city from the zip code', () => {
  it('fills an empty city when the code names one place, and offers several in the list', async () => {
    const asked = serve({ '10115': ['Berlin'], '75001': ['Paris', 'Paris 01'] });
    const { zip, city, options } = mount();
    type(zip, '101');
    expect(asked).toEqual([]); // not typed enough yet
    type(zip, '10115');
    await waitFor(() => expect(city.value).toBe('Berlin'));
    expect(options()).toEqual(['Berlin']);
    // Another code with several places: the script's own fill is taken back, the list offered.
    type(zip, '75001');
    await waitFor(() => expect(options()).toEqual(['Paris', 'Paris 01']));
    expect(city.value).toBe('');
  });

  it('never replaces a city the member wrote', async () => {
    serve({ '10115': ['Berlin'] });
    const { zip, city, options } = mount();
    city.value = 'Berlin-Mitte';
    type(zip, '10115');
    await waitFor(() => expect(options()).toEqual(['Berlin']));
    expect(city.value).toBe('Berlin-Mitte');
  });

  it('asks for the country chosen in the form, and leaves the city alone when the call fails', async () => {
    const asked = serve({ '1000': ['Bruxelles'] });
    const { zip, city } = mount('BE');
    zip.value = '1000';
    zip.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => expect(city.value).toBe('Bruxelles'));
    expect(asked).toContain('1000|BE');

    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('offline'); }));
    const again = mount();
    type(again.zip, '20095');
    await new Promise((r) => setTimeout(r, 20));
    expect(again.city.value).toBe('');
  });

  it('looks up a code typed before the script started', async () => {
    const asked = serve({ '67000': ['Strasbourg'], '44000': ['Nantes'] });
    const typing = mount();
    typing.zip.focus();
    typing.zip.value = '67000'; // no input event reached a listener: the script was not there
    catchUp();
    await waitFor(() => expect(typing.city.value).toBe('Strasbourg'));
    // A form whose city is already there is not asked about.
    const filledIn = mount();
    filledIn.zip.value = '44000';
    filledIn.city.value = 'Nantes';
    asked.length = 0;
    catchUp();
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual([]);
  });
});
