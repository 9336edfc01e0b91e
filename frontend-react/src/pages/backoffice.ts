// The back office's one script (server/src/backoffice/ui.rs): the shop's form enhancement,
// through the same `forms` module member pages load (its forms are server forms that work
// without it), and the live figures of the sale-opening dashboard. Its own entry, so no
// back-office code reaches a member's page.
import './forms';
import { start as startLive } from './backoffice-live';

startLive();
