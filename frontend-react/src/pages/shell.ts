// The script of every shop page with islands (app/src/app.rs `ShellScript`): in-app
// navigation and the enhancement of server forms, one module.
import { start as startEnhance } from './enhance';
import { start as startNavigation } from './navigation';

startNavigation();
startEnhance();
