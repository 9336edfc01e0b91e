// The script of every shop page with islands (app/src/app.rs `ShellScript`): in-app
// navigation and the header's glue. A page with server forms sent in place (a
// `data-enhance-region`), key-filtered fields or a popin that fades out when answered
// (`data-leave`) also loads `forms.ts`, once, when it is first shown.
import { NAVIGATED } from '../lib/events';
import { start as startHeader } from './header';
import { start as startNavigation } from './navigation';

startNavigation();
startHeader();

let forms: Promise<unknown> | null = null;
const formsIfNeeded = () => {
  if (!forms && document.querySelector('[data-enhance-region], [data-key-filter], [data-city-from-zip], [data-leave]')) forms = import('./forms');
};
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', formsIfNeeded, { once: true });
else formsIfNeeded();
document.addEventListener(NAVIGATED, formsIfNeeded);
