import type { CalendarDay } from '../generated/CalendarDay';
import type { CalendarDays } from '../travel-shared/rules';

function day(date: string, price: number, over: Partial<CalendarDay> = {}): CalendarDay {
  return {
    price,
    referencePrice: price + 30000,
    id: `11-${date.replace(/-/g, '')}`,
    vpEntityId: 11,
    isOutOfStock: false,
    isLowest: false,
    ...over,
  };
}

/** March and April 2027: a lowest day, a sold-out day, a price with cents, April's only day. */
export const DAYS: CalendarDays = {
  '2027-03-06': day('2027-03-06', 59900, { isLowest: true }),
  '2027-03-13': day('2027-03-13', 64900, { isOutOfStock: true }),
  '2027-03-20': day('2027-03-20', 69950),
  '2027-03-21': day('2027-03-21', 72000),
  '2027-04-03': day('2027-04-03', 123400),
};
