// The script of every shop page with islands (app/src/app.rs `ShellScript`): in-app
// navigation, the enhancement of server forms, the key filters of form fields and the
// header's glue, one module.
import { start as startEnhance } from './enhance';
import { start as startHeader } from './header';
import { start as startKeyFilters } from './key-filters';
import { start as startNavigation } from './navigation';

startNavigation();
startEnhance();
startHeader();
startKeyFilters();
