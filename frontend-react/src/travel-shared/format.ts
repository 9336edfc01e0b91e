// Intl formatting of the travel widgets (cached: building a formatter is not free).
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = cache.get(key) as T | undefined;
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

/** An amount in cents as a price of `currency`, without decimals when it is whole. */
export function formatPrice(cents: number, locale: string, currency: string): string {
  const digits = cents % 100 === 0 ? 0 : 2;
  try {
    const f = cached(
      `n|${locale}|${currency}|${digits}`,
      () =>
        new Intl.NumberFormat(locale, {
          style: 'currency',
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        }),
    );
    return f.format(cents / 100);
  } catch {
    // An unknown currency code: the amount and the code as given.
    return `${(cents / 100).toFixed(digits)} ${currency}`;
  }
}

/** A date formatter of `locale` (the options are part of the cache key). */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** `mars 2027` → `Mars 2027`: a caption starts with a capital in every language. */
export function capitalize(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}
