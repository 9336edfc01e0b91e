import { type Locator, type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { DEMO_EMAIL_2, signInAsDemo } from './session';
import { signIn } from './backoffice-steps';

// The back office as an operator uses it: sign-in with a TOTP code, a new sale with two
// products and their options made through the forms, then a member holds an option and the
// operator sees it on the live dashboard without a reload; a stock cut below what is held
// is refused with the figures. axe on every back-office page kind. The desktop project
// works as the demo admin on Violeta's site 66, the phone as the demo merchandiser on site
// 69 (a TOTP code is good once, so the two projects never share an operator's step), each
// with the second demo member, whose cart on these sites no other test uses.

/** The picture finished loading, from a source the shop serves as WebP to this browser. (Its
 * natural width says nothing here: the test's 1×1 picture, chosen from a `srcset` at a
 * phone's density, reports 0.) */
async function expectPictureShown(picture: Locator) {
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).toMatch(/\/img\/p\/\d+/);
  const src = await picture.evaluate((img: HTMLImageElement) => img.currentSrc);
  const res = await picture.page().request.get(src, { headers: { accept: 'image/avif,image/webp,*/*' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/webp');
}

function local(d: Date): string {
  return d.toISOString().slice(0, 16);
}

test('an operator puts a sale on the shop and watches a member hold an option live', async ({ page, browser, baseURL }, info) => {
  // A long walk (a dozen back-office pages, each checked with axe, and a second browser):
  // 1.3 minutes alone, over 2 when the machine was busy.
  test.setTimeout(180_000);
  const desktop = info.project.name === 'desktop';
  const [operator, site] = desktop ? ['admin@rosace.test', '66'] : ['merch@rosace.test', '69'];
  await signIn(page, operator);
  await expectNoViolations(page, undefined, { islands: false });
  await expectNoViolations(page, '/backoffice/', { islands: false });
  await page.goto('/backoffice/sales');

  // A new sale: a refused form first (it keeps what was typed), then the real one.
  const name = `Manteaux ${Date.now().toString(36)}`;
  await page.getByRole('link', { name: 'New sale' }).click();
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel('Site').selectOption(site);
  await page.getByLabel('Name').fill(name);
  const now = Date.now();
  await page.getByLabel('Opens (UTC)').fill(local(new Date(now + 86_400_000)));
  await page.getByLabel('Closes (UTC)').fill(local(new Date(now - 3_600_000)));
  await page.getByRole('button', { name: 'Create the sale' }).click();
  await expect(page.getByText('The closing time must be after the opening time.')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue(name);
  await expectNoViolations(page, undefined, { islands: false });
  // It opens tomorrow: previewed first, opened below.
  await page.getByLabel('Opens (UTC)').fill(local(new Date(now + 86_400_000)));
  await page.getByLabel('Closes (UTC)').fill(local(new Date(now + 3 * 86_400_000)));
  await page.getByRole('button', { name: 'Create the sale' }).click();
  await expect(page.getByRole('status')).toContainText('Sale created.');
  const saleId = Number(/\/backoffice\/sales\/(\d+)/.exec(page.url())![1]);
  expect(saleId).toBeGreaterThanOrEqual(1_000_000);
  await expectNoViolations(page, undefined, { islands: false });

  // Its tile on a home of its site.
  await page.getByRole('link', { name: 'On the homes' }).click();
  await expect(page.getByText('This sale has no tile on a home yet.')).toBeVisible();
  await page.getByLabel('Tile size').selectOption('XL');
  await page.getByRole('button', { name: 'Place on a home' }).click();
  await expect(page.getByRole('status')).toContainText('The sale\'s tile is on the home.');
  await expect(page.locator('#placements tbody tr')).toHaveCount(1);
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByRole('link', { name: name }).click();

  // Its banner, sent after the tile was placed: the tile shows it too.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
  await expect(page.locator('[data-sale-picture="banner"] img')).toHaveAttribute('src', `/img/sale/${saleId}/banner.svg`);
  await page.getByLabel(/^Banner/).setInputFiles({ name: 'banner.txt', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await page.getByLabel(/^Banner/).locator('xpath=..').getByRole('button', { name: 'Upload' }).click();
  await expect(page.locator('#sale-banner-error')).toContainText('not a JPEG, PNG or WebP');
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel(/^Banner/).setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: png });
  await page.getByLabel(/^Banner/).locator('xpath=..').getByRole('button', { name: 'Upload' }).click();
  await expect(page.locator('.bo-notice')).toContainText('Picture saved');
  await expect(page.locator('[data-sale-picture="banner"] img')).toHaveAttribute('src', /^\/img\/s\/\d+\?w=960$/);
  const banner = await page.locator('[data-sale-picture="banner"] img').getAttribute('src');

  // A brand the shop lacks, added before its products.
  await page.getByRole('link', { name: 'Brands' }).click();
  const brand = `Maison ${Date.now().toString(36)}`;
  await page.getByLabel('Brand name', { exact: true }).fill(brand);
  await page.getByRole('button', { name: 'Add the brand' }).click();
  await expect(page.getByRole('status')).toContainText('Brand saved.');
  await expectNoViolations(page, undefined, { islands: false });

  // Two products, each with two sizes; the Caban's M has a price and a picture of its own.
  await page.goto(`/backoffice/sales/${saleId}`);
  await page.getByRole('link', { name: 'Products and stock' }).first().click();
  for (const [product, price, retail] of [['Caban', '89.90', '179'], ['Parka', '120', '240']]) {
    await page.getByLabel('Product', { exact: true }).fill(product);
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: brand });
    await page.getByLabel(/^Price/).fill(price);
    await page.getByLabel(/^Retail price/).fill(retail);
    await page.getByRole('button', { name: 'Add the product' }).click();
    await expect(page.getByRole('status')).toContainText('Product added.');
    for (const [label, stock] of [['S', '3'], ['M', '2']]) {
      await page.getByLabel(`${product} · Option`).fill(label);
      await page.getByLabel(`${product} · Stock`).fill(stock);
      if (product === 'Caban' && label === 'M') {
        await page.getByLabel(`${product} · Own price`).fill('99.90');
        await page.getByLabel(`${product} · Own retail price`).fill('199');
      }
      await page.getByLabel(`${product} · Option`).press('Enter');
      await expect(page.getByRole('status')).toContainText('Option added.');
    }
  }
  await expect(page.locator('#stock tbody tr')).toHaveCount(4);
  // The Caban's picture (a PNG; the shop serves it as WebP to this browser).
  await page.getByLabel('Caban · Picture').setInputFiles({ name: 'caban.png', mimeType: 'image/png', buffer: png });
  await page.getByLabel('Caban · Picture').locator('xpath=..').getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('status')).toContainText('Picture saved');
  await expect(page.locator('img[data-picture]')).toHaveCount(1);
  await page.getByLabel('Caban M · Picture').setInputFiles({ name: 'caban-m.png', mimeType: 'image/png', buffer: png });
  await page.getByLabel('Caban M · Picture').locator('xpath=..').getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('status')).toContainText('Picture saved');
  await expect(page.locator('img[data-option-picture]')).toHaveCount(1);
  await expect(page.locator('[data-option-price]')).toContainText('99.90 / 199.00');
  await expectNoViolations(page, undefined, { islands: false });
  const productId = await page.locator('[data-product]', { hasText: 'Caban' }).getAttribute('data-product');
  // A sub-universe, and the Caban moved into it with a tier and a delivery mode.
  await page.getByLabel('New universe').fill('Vestes');
  await page.getByRole('button', { name: 'Add the universe' }).click();
  await expect(page.locator('.bo-notice')).toContainText('Universes saved.');
  await page.getByLabel('New universe').fill('Cabans');
  await page.getByLabel('Under').selectOption({ label: 'Vestes' });
  await page.getByRole('button', { name: 'Add the universe' }).click();
  await expect(page.locator('ul.bo-universes')).toContainText('Cabans');
  await page.locator('[data-product]', { hasText: 'Caban' }).click();
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel('Universe').selectOption({ label: 'Vestes › Cabans' });
  await page.getByLabel('Tier (badge)').selectOption('PREMIUM');
  await page.getByLabel('Delivery').selectOption('1');
  await page.getByRole('button', { name: 'Save the product' }).click();
  await expect(page.locator('.bo-notice')).toContainText('Product saved.');
  await expect(page.locator('ul.bo-universes li', { hasText: 'Cabans' })).toContainText('Products: 1');
  // The products page finds by name, in any case, and changes the ticked products at once.
  await page.goto(`/backoffice/sales/${saleId}/products`);
  await page.getByLabel(/^Find products/).fill('PARKA');
  await page.getByLabel(/^Find products/).press('Enter');
  await expect(page.locator('#products-found')).toHaveText('Products found: 1');
  await expect(page.locator('[data-product]')).toHaveText(['Parka']);
  await page.getByLabel('Tick · Parka').check();
  await page.getByLabel('Delivery', { exact: true }).selectOption('3');
  await page.getByRole('button', { name: 'Apply to the ticked products' }).click();
  await expect(page.getByRole('status')).toContainText('The ticked products were changed.');
  await expectNoViolations(page, undefined, { islands: false });

  // A preview at its opening: the shop's catalog as members will see it then, in this
  // browser only, said on the page; a member sees nothing of it yet.
  await page.goto(`/backoffice/sales/${saleId}`);
  await page.getByRole('button', { name: 'Preview the home' }).click();
  await expect(page.getByTestId('operator-preview')).toBeVisible();
  const tile = page.locator(`img[src="${banner}"]`).first();
  await expect(tile).toBeAttached();
  expect((await page.request.get(banner!, { headers: { accept: 'image/avif,image/webp,*/*' } })).headers()['content-type']).toBe('image/webp');
  await page.goto(`/backoffice/sales/${saleId}`);
  await page.getByRole('button', { name: 'Preview the catalog' }).click();
  await expect(page.getByTestId('operator-preview')).toBeVisible();
  await expect(page.getByTestId('items-grid')).toContainText('Caban');
  await expectNoViolations(page);
  await page.getByTestId('operator-preview').getByRole('link').click();
  await expect(page.getByTestId('preview-running')).toBeVisible();
  await page.getByRole('button', { name: 'End the preview' }).click();
  await expect(page.getByTestId('preview-none')).toBeVisible();
  await expectNoViolations(page, undefined, { islands: false });

  // The sale opens: its opening moved to an hour ago.
  await page.goto(`/backoffice/sales/${saleId}`);
  await page.getByLabel('Opens (UTC)').fill(local(new Date(now - 3_600_000)));
  await page.getByRole('button', { name: 'Save the sale' }).click();
  await expect(page.locator('.bo-notice')).toContainText('Sale saved.');

  // The live dashboard, open while a member holds size S of the Caban.
  await page.goto(`/backoffice/sales/${saleId}/dashboard`);
  await expectNoViolations(page, undefined, { islands: false });
  const heldS = page.locator('#dashboard tr', { hasText: 'Caban · S' }).locator('[data-field="held"]');
  await expect(heldS).toHaveText('0');

  const member = await browser.newContext({ baseURL });
  await member.addCookies([{ name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! }]);
  const shopper = await member.newPage();
  await signInAsDemo(shopper, Number(site), `/product/${saleId}/${productId}`, DEMO_EMAIL_2);
  await expect(shopper.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(shopper.getByRole('heading', { level: 1 })).toContainText('Caban');
  const picture = shopper.locator('img.product__image');
  await expect(picture).toHaveAttribute('src', /^\/img\/p\/\d+/);
  await expectPictureShown(picture);
  // Before a choice, the first option in stock (S) with the product's price and picture;
  // choosing M shows its own, choosing S again the product's (coverage P9).
  const price = shopper.getByTestId('product-price');
  const productPicture = await picture.getAttribute('src');
  await expect(price).toContainText('89,90');
  const option = (label: string) =>
    shopper.locator('label.option').filter({ has: shopper.locator('.option__label', { hasText: new RegExp(`^${label}$`) }) }).getByTestId('product-option');
  await option('M').check();
  await expect(price).toContainText('99,90');
  await expect(shopper.getByTestId('product-retail')).toContainText('199');
  await expect(picture).not.toHaveAttribute('src', productPicture!);
  await expect(picture).toHaveAttribute('src', /^\/img\/p\/\d+$/);
  await expectPictureShown(picture);
  await option('S').check();
  await expect(price).toContainText('89,90');
  await expect(picture).toHaveAttribute('src', productPicture!);
  await shopper.getByTestId('add-to-cart').click();
  await expect(shopper.getByTestId('added-to-cart')).toBeVisible();
  await member.close();

  // No reload: the stream brings the hold.
  await expect(heldS).toHaveText('1', { timeout: 10_000 });

  // Cutting the stock below what is held is refused with the figures; a cut that leaves
  // the held unit goes through and is in the option's history.
  await page.goto(`/backoffice/sales/${saleId}/products`);
  await page.getByLabel('Caban S · Change by (+/−)').fill('-3');
  await page.getByLabel('Caban S · Reason').fill('recount');
  await page.getByLabel('Caban S · Reason').press('Enter');
  await expect(page.getByRole('alert')).toContainText('lowest change allowed: -2');
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel('Caban S · Change by (+/−)').fill('-2');
  await page.getByLabel('Caban S · Reason').fill('damaged');
  await page.getByLabel('Caban S · Reason').press('Enter');
  await expect(page.getByRole('status')).toContainText('Stock changed.');
  await page.locator('#stock tr', { hasText: 'S' }).getByRole('link', { name: 'History' }).first().click();
  await expect(page.locator('#history')).toContainText('damaged');
  await expectNoViolations(page, undefined, { islands: false });

  // A broken feed: the check lists every error with its path and changes nothing.
  await page.getByRole('link', { name: 'Import' }).click();
  await expectNoViolations(page, undefined, { islands: false });
  const broken = { sales: [{ ref: `bad-${Date.now()}`, site: 5, name: '', offer_type: 'FlashSale', opens: '2026-12-04T08:00:00Z', closes: '2026-12-01T08:00:00Z' }] };
  await page.getByLabel(/Feed file/).setInputFiles({ name: 'feed.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
  await page.getByRole('button', { name: 'Send' }).click();
  const errors = page.locator('#import-errors');
  await expect(errors).toContainText('Nothing was changed.');
  await expect(errors).toContainText('sales[0].site: Choose one of the 11 sites.');
  await expect(errors).toContainText('sales[0].closes: The closing time must be after the opening time.');
  await expectNoViolations(page, undefined, { islands: false });

  // A trip's inventory: a package, its departure city, a duration, then a season (refused
  // once, what was typed kept) that the trip's departures follow.
  await page.goto('/backoffice/products/102501/travel');
  await expectNoViolations(page, undefined, { islands: false });
  const suffix = Date.now().toString(36);
  const title = `Formule ${suffix}`;
  await page.getByLabel('Package title').fill(title);
  await page.getByRole('button', { name: 'Add the package' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  const pkg = page.locator('section.bo-travel-package', { hasText: title });
  await pkg.getByLabel(`${title} · Airport or station code`).fill('NCE');
  await pkg.getByLabel(`${title} · Departure city`).fill(`Nice ${suffix}`);
  await pkg.getByRole('button', { name: 'Add the departure city' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  const city = page.locator('section.bo-travel-city', { hasText: `NCE Nice ${suffix}` });
  await city.getByLabel(/· days$/).fill('8');
  await city.getByLabel(/· nights$/).fill('7');
  await city.getByRole('button', { name: 'Add the duration' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  const day = (days: number) => new Date(now + days * 86_400_000).toISOString().slice(0, 10);
  await city.getByLabel(/First departure day$/).fill(day(30));
  await city.getByLabel(/Last departure day$/).fill(day(90));
  await city.getByLabel('Sat').check();
  await city.getByLabel(/Price per person$/).fill('499');
  await city.getByLabel(/Reference price$/).fill('399');
  await city.getByLabel(/· Places$/).fill('12');
  await city.getByRole('button', { name: 'Add the season' }).click();
  await expect(city.getByRole('alert')).toContainText('The retail price cannot be below the sale price.');
  await expect(city.getByLabel(/Price per person$/)).toHaveValue('499');
  await expect(city.getByLabel('Sat')).toBeChecked();
  await expectNoViolations(page, undefined, { islands: false });
  await city.getByLabel(/Reference price$/).fill('699');
  await city.getByRole('button', { name: 'Add the season' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  await expect(city.locator('table').first()).toContainText('499.00');
  // Its price changes in its row; then it goes (after a confirmation), and the duration.
  const season = city.locator('tr[data-season]');
  await season.getByLabel(/· Price per person$/).fill('459');
  await season.getByRole('button', { name: /· Save$/ }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  await expect(city.locator('tr[data-season]')).toContainText('459.00');
  await expectNoViolations(page, undefined, { islands: false });
  page.once('dialog', (dialog) => dialog.accept());
  await city.locator('tr[data-season]').getByRole('button', { name: /· Remove$/ }).click();
  await expect(city.locator('tr[data-season]')).toHaveCount(0);
  page.once('dialog', (dialog) => dialog.accept());
  await city.getByRole('button', { name: /8 days \/ 7 nights · Remove$/ }).click();
  await expect(city.locator('li[data-duration]')).toHaveCount(0);

  if (desktop) {
    // The admin's pages: operators and the audit log, which holds what was just done.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Search').fill(name);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.locator('#audit')).toContainText('create');
    await expectNoViolations(page, undefined, { islands: false });
    await page.getByRole('link', { name: 'Operators' }).click();
    await expect(page.locator('table')).toContainText('moderator@rosace.test');
    await expectNoViolations(page, undefined, { islands: false });
  }

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/backoffice\/signin$/);
  await page.goto('/backoffice/sales');
  await expect(page).toHaveURL(/\/backoffice\/signin/);
});

test('an operator makes a new trip and the travel catalog lists it on its map', async ({ page }, info) => {
  test.setTimeout(90_000);
  const desktop = info.project.name === 'desktop';
  // The other project's operator of the first test: each operator signs in once per shop.
  const [operator, site] = desktop ? ['merch@rosace.test', '2'] : ['admin@rosace.test', '3'];
  await signIn(page, operator);
  const name = `Escapades ${Date.now().toString(36)}`;
  await page.getByRole('link', { name: 'New sale' }).click();
  await page.getByLabel('Site').selectOption(site);
  await page.getByLabel('Kind').selectOption('trips');
  await page.getByLabel('Name').fill(name);
  const now = Date.now();
  await page.getByLabel('Opens (UTC)').fill(local(new Date(now - 3_600_000)));
  await page.getByLabel('Closes (UTC)').fill(local(new Date(now + 3 * 86_400_000)));
  await page.getByLabel(/Show a map/).check();
  await page.getByRole('button', { name: 'Create the sale' }).click();
  await expect(page.getByRole('status')).toContainText('Sale created.');
  const saleId = Number(/\/backoffice\/sales\/(\d+)/.exec(page.url())![1]);

  await page.getByRole('link', { name: 'Products and stock' }).first().click();
  const trip = `Riad ${Date.now().toString(36)}`;
  await page.getByLabel('Product', { exact: true }).fill(trip);
  await page.getByLabel(/^Price/).fill('399');
  await page.getByLabel(/^Retail price/).fill('599');
  await page.getByRole('button', { name: 'Add the product' }).click();
  await expect(page.getByRole('status')).toContainText('Product added.');
  await page.locator('[data-make-trip]').click();

  // A city the site has no trip to yet: added with its region and country, then chosen.
  const town = `Essaouira ${Date.now().toString(36)}`;
  await page.getByLabel('City', { exact: true }).fill(town);
  await page.getByLabel('Region', { exact: true }).fill('Marrakech-Safi');
  await page.getByLabel('Country', { exact: true }).fill('Maroc');
  await page.getByRole('button', { name: 'Add the destination' }).click();
  await expect(page.getByRole('status')).toContainText('Destination added');
  await page.getByLabel(/^Destination/).selectOption({ label: `${town} (Marrakech-Safi)` });

  // The trip's place and kind: refused once (what was typed kept), then made.
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel(/^Latitude/).fill('131.6');
  await page.getByLabel(/^Longitude/).fill('-7,9811');
  await page.getByLabel('Board').selectOption('half_board');
  await page.getByLabel('Rating').selectOption('4');
  await page.getByLabel(/^Highlights/).fill('Patio et fontaine\nHammam');
  await page.getByRole('button', { name: 'Make it a trip' }).click();
  await expect(page.getByText('Enter a latitude from -90 to 90.')).toBeVisible();
  await expect(page.getByLabel(/^Longitude/)).toHaveValue('-7,9811');
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel(/^Latitude/).fill('31,6295');
  await page.getByRole('button', { name: 'Make it a trip' }).click();
  await expect(page).toHaveURL(/\/travel\?done=1$/);
  const productId = Number(/\/products\/(\d+)\/travel/.exec(page.url())![1]);

  // Its package, departure city, stay and season.
  await page.getByLabel('Package title').fill('Chambre double');
  await page.getByRole('button', { name: 'Add the package' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  await page.getByLabel('Chambre double · Airport or station code').fill('CDG');
  await page.getByLabel('Chambre double · Departure city').fill('Paris');
  await page.getByRole('button', { name: 'Add the departure city' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  const city = page.locator('section.bo-travel-city', { hasText: 'CDG Paris' });
  await city.getByLabel(/· days$/).fill('4');
  await city.getByLabel(/· nights$/).fill('3');
  await city.getByRole('button', { name: 'Add the duration' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  const day = (days: number) => new Date(now + days * 86_400_000).toISOString().slice(0, 10);
  await city.getByLabel(/First departure day$/).fill(day(10));
  await city.getByLabel(/Last departure day$/).fill(day(80));
  for (const d of ['Mon', 'Wed', 'Sat']) await city.getByLabel(d).check();
  await city.getByLabel(/Price per person$/).fill('399');
  await city.getByLabel(/Reference price$/).fill('599');
  await city.getByLabel(/· Places$/).fill('8');
  await city.getByRole('button', { name: 'Add the season' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');

  // Its description: a theme, a perk and a tab; a wrong price refused first.
  await page.locator('[data-description]').click();
  await page.getByLabel('Seaside').check();
  await page.getByLabel(/^Perk shown on its card/).fill('Hammam offert');
  await page.locator('#tab-title-0').fill('Le riad');
  await page.locator('#tab-text-0').fill('Un patio et sa fontaine.');
  await page.getByLabel(/^Lowest price of the last 30 days/).fill('trois cents');
  await page.getByRole('button', { name: 'Save the description' }).click();
  await expect(page.locator('#description-errors')).toContainText('is not an amount');
  await expect(page.getByLabel('Seaside')).toBeChecked();
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel(/^Lowest price of the last 30 days/).fill('379');
  await page.getByRole('button', { name: 'Save the description' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');

  // The shop's travel catalog of the sale: its card and its pin.
  await page.goto(`/voyages/c/${saleId}?site=${site}`);
  const card = page.locator(`[data-testid="offer-card"][data-offer-id="${productId}"]`);
  await expect(card).toContainText(trip);
  const map = page.getByTestId('travel-map');
  await map.scrollIntoViewIfNeeded();
  await expect(map.locator(`li.tm-pin-wrap[data-offer-id="${productId}"]`)).toBeAttached();
});

test('an operator lays out a sale\'s catalog and writes its marketing banner and insert; members see them', async ({ page, browser, baseURL }, info) => {
  // Spec 000 §3 `catalog_type` and `marketing`, set in the sale form. Desktop on site 2,
  // phone on site 3: each project its own operator and a sale (the 8th of its site) no
  // other test lays out.
  test.setTimeout(120_000);
  const desktop = info.project.name === 'desktop';
  const [operator, site] = desktop ? ['admin@rosace.test', 2] : ['merch@rosace.test', 3];
  const saleId = ([1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76].indexOf(site) + 1) * 1000 + 8;
  await signIn(page, operator);
  await page.goto(`/backoffice/sales/${saleId}`);
  await expect(page.getByLabel('Layout (catalog_type)')).toHaveValue('1');

  // A line without its title, and a title too long: refused, each by its field, kept.
  await page.getByLabel('Layout (catalog_type)').selectOption({ label: 'One page: every item at once' });
  await page.getByLabel('Marketing banner: line of text').fill('Jusqu\'à -70 % sur tout');
  await page.getByLabel('Marketing insert among the items: title').fill('Z'.repeat(80));
  await page.getByLabel('Marketing insert among the items: title').evaluate((el: HTMLInputElement) => {
    el.value = 'Z'.repeat(81);
  });
  await page.getByRole('button', { name: 'Save the sale' }).click();
  await expect(page.locator('#err-banner_title')).toHaveText('A line of text needs its title.');
  await expect(page.locator('#err-insert_title')).toHaveText('80 characters at most.');
  await expect(page.getByLabel('Marketing banner: title')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Marketing banner: line of text')).toHaveValue('Jusqu\'à -70 % sur tout');
  await expectNoViolations(page, undefined, { islands: false });

  // Saved: the one-page layout, a banner and an insert.
  await page.getByLabel('Marketing banner: title').fill('Soldes d\'hiver');
  await page.getByLabel('Marketing insert among the items: title').fill('Nouveautés');
  await page.getByLabel('Marketing insert: line of text').fill('Les pièces arrivées cette semaine');
  await page.getByRole('button', { name: 'Save the sale' }).click();
  await expect(page.locator('.bo-notice')).toContainText('Sale saved.');
  await expect(page.getByLabel('Layout (catalog_type)')).toHaveValue('2');
  await expectNoViolations(page, undefined, { islands: false });

  // A member of that site sees them on the sale's catalog: every item on one page.
  const member = await browser.newContext({ baseURL });
  await member.addCookies([{ name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! }]);
  const shopper = await member.newPage();
  await signInAsDemo(shopper, site);
  await shopper.goto(`/catalog/${saleId}/0`);
  await expect(shopper.getByTestId('marketing-banner')).toContainText('Soldes d\'hiver');
  await expect(shopper.getByTestId('marketing-banner')).toContainText('Jusqu\'à -70 % sur tout');
  const insert = shopper.getByTestId('items-grid').getByTestId('marketing-insert');
  await expect(insert).toContainText('Nouveautés');
  await expect(shopper.locator('[data-catalog-type="2"]')).toHaveCount(1);
  await expect(shopper.getByTestId('next-page')).toHaveCount(0);
  await expectNoViolations(shopper);
  await member.close();
});
