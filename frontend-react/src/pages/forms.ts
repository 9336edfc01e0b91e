// What a page with server forms sent in place needs (`data-enhance-region`): the
// enhancement script, the key filters of form fields and the city offered from a zip code. Loaded by the shell module only on
// such pages, so the others (home, catalogs, product, search, cart) do not carry it.
import { start as startEnhance } from './enhance';
import { start as startKeyFilters } from './key-filters';
import { start as startZipCity } from './zip-city';

startEnhance();
startKeyFilters();
startZipCity();
