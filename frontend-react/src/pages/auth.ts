// The registration step's module: the sign-in steps have no island and load no WASM, so
// they do not load the shell either. What their form needs in the browser is the key
// filters of its fields (spec 000 §5) and the city offered from the zip code; both rules
// stay the server's (the filters' twins are listed in docs/frontend.md).
import { start as startKeyFilters } from './key-filters';
import { start as startZipCity } from './zip-city';

startKeyFilters();
startZipCity();
