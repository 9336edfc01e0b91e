import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { addToCart, firstSale, memberEmail, register, signedIn, texts } from './member-steps';

// A sale's intermediate step (spec 000 §3 legal.productsListingCgu, sale state
// hasAcceptedIntermediate and hasCanceledCart): every site's 11th demo sale, a marketplace
// one, asks a member to accept its conditions before its catalog, once. On the project's
// first site the member holds a flash-sale item first: the step says the cart cannot be
// paid with this sale's items and its button empties it. Members registered for the test.

const sitesFor = (project: string) => (project === 'desktop' ? [1, 76] : [66, 4]);

for (const nth of [0, 1]) {
  test(`site #${nth + 1} of the project: the sale's conditions before its catalog, accepted once${nth === 0 ? ', the cart of another kind emptied' : ''}`, async ({ page }, info) => {
    const site = sitesFor(info.project.name)[nth];
    const t = texts(site);
    const sale = firstSale(site) + 10;
    const email = memberEmail(site, info.project.name, `gate${nth}`);
    expect(await register(page, site, email)).toBe(201);
    await signedIn(page, site, email, '/');
    const withCart = nth === 0;
    if (withCart) await addToCart(page, firstSale(site), 1);

    await page.goto(`/catalog/${sale}/0`);
    const step = page.getByTestId('sale-intermediate');
    await expect(step).toBeVisible();
    await expect(step.getByText(t['catalog.intermediate.intro'])).toBeVisible();
    await expect(page.getByTestId('intermediate-conditions').locator('p')).toHaveCount(2);
    await expect(page.getByTestId('items-grid')).toHaveCount(0);
    const accept = page.getByTestId('intermediate-accept');
    if (withCart) {
      await expect(page.getByTestId('intermediate-cart')).toHaveText(t['catalog.intermediate.cart']);
      await expect(accept).toHaveText(t['catalog.intermediate.accept_and_empty']);
    } else {
      await expect(page.getByTestId('intermediate-cart')).toHaveCount(0);
      await expect(accept).toHaveText(t['catalog.intermediate.accept']);
    }
    await expectNoViolations(page);
    // Nothing answered yet: the sale call says so.
    let answers = await (await page.request.get(`/api/catalog/v2/sale/${sale}`)).json();
    expect(answers.state).toEqual({ hasAcceptedIntermediate: false, hasCanceledCart: false });

    await accept.click();
    await expect(page).toHaveURL(new RegExp(`/catalog/${sale}/0`));
    await expect(page.getByTestId('items-grid').locator('[data-item-id]').first()).toBeVisible();
    // Once: the next visit goes straight to the catalog.
    await page.goto(`/catalog/${sale}/0`);
    await expect(page.getByTestId('items-grid').locator('[data-item-id]').first()).toBeVisible();
    await expect(page.getByTestId('sale-intermediate')).toHaveCount(0);
    answers = await (await page.request.get(`/api/catalog/v2/sale/${sale}`)).json();
    expect(answers.state).toEqual({ hasAcceptedIntermediate: true, hasCanceledCart: withCart });
    // The emptied cart has nothing left (an empty cart answers 204).
    const cart = await page.request.get('/api/cartproxy/v1');
    expect(cart.status()).toBe(204);
  });
}
