import { type BrowserContext, type Page } from '@playwright/test';
import { expect } from './fixtures';

export const DEMO_EMAIL = 'demo@rosace.test';
export const DEMO_EMAIL_2 = 'demo2@rosace.test';
export const DEMO_PASSWORD = 'Rosace-demo-2026';

/// Signs in as a site's demo member and closes any onboarding popin, so the page under test
/// is usable. Leaves the browser on `returnUrl`.
export async function signInAsDemo(page: Page, site: number, returnUrl = '/', email = DEMO_EMAIL) {
  await signInByCall(page.context(), site, email, DEMO_PASSWORD);
  await page.goto(returnUrl);
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
}

/// Signs the browser in through the sign-in call the sign-in page's script makes, with the
/// XSRF pair of a first request: two requests where the form takes two rendered pages, for
/// the hundred-odd tests that only need to start signed in. The form itself is exercised
/// by members.spec.ts, social.spec.ts and the member journeys.
export async function signInByCall(context: BrowserContext, site: number, email: string, password: string) {
  await context.request.get(`/gr/authentication?site=${site}`);
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value;
  expect(xsrf, 'the XSRF cookie of a first page').toBeTruthy();
  const res = await context.request.post('/api/authentication/v1/login', {
    headers: { 'X-XSRF-TOKEN': xsrf! },
    data: { email, password, rememberMe: false, siteId: site },
  });
  expect(res.status(), `sign-in of ${email}`).toBe(200);
  expect((await res.json()).result, `sign-in of ${email}: result 1 is success`).toBe(1);
}

export async function closePopins(page: Page) {
  // The terms of sale are accepted (checkout needs them); the other popins are closed.
  // One popin per page view: the page an answer returns to shows none, the next comes with
  // the page view after. So each answer waits for the page it returns to, then the page
  // is viewed again, until a view that follows no answer shows none. (Reading the page right
  // after a click raced the navigation: the old page, or the new one half parsed, and the
  // loop stopped with popins left that then blocked a later page.) Each look waits for
  // the whole page: the popins are server HTML at the very end of <body>.
  let answered = false;
  for (let i = 0; i < 16; i++) {
    // The whole page, its load event fired: one still to come would end the wait for the
    // answer's page below before that page came, and the reload would hit the navigation
    // ("Not attached to an active page", seen on a phone run without scripts).
    await page.waitForLoadState('load');
    if ((await page.getByTestId('popin').count()) === 0) {
      if (!answered) break;
      answered = false;
      await page.reload();
      continue;
    }
    const kind = await page.getByTestId('popin').getAttribute('data-popin-type');
    // The page the answer returns to, loaded: a reload during that navigation fails.
    const loaded = page.waitForEvent('load');
    await page.getByTestId(kind === 'terms' ? 'popin-accept' : 'popin-close').click();
    await loaded;
    answered = true;
    await page.reload();
  }
  if ((await page.getByTestId('adot-accept').count()) > 0) {
    const loaded = page.waitForEvent('load');
    await page.getByTestId('adot-accept').click();
    await loaded;
  }
}
