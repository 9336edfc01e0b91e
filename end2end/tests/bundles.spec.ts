import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { firstSale, memberEmail, register, signedIn, texts } from './member-steps';

// Bundles and carousels (spec 000 §3 item type Carrousel 7, §5 cart context bundle_id, §7
// "carousel" and "bundle price"): every site's first sale sells its Carrousel item (its
// eighth product) with the two after it. Its catalog tile shows their pictures; each of their
// pages offers the bundle, whose total the server recomputes when a size changes, and one
// button puts the three in the cart with the bundle's id. Two sites per project.

const sitesFor = (project: string) => (project === 'desktop' ? [1, 66] : [4, 76]);

for (const nth of [0, 1]) {
  test(`site #${nth + 1} of the project: a look's carousel in the catalog, its bundle added in one go`, async ({ page }, info) => {
    const site = sitesFor(info.project.name)[nth];
    const t = texts(site);
    const sale = firstSale(site);
    const [look, second] = [sale * 100 + 8, sale * 100 + 9];
    const email = memberEmail(site, info.project.name, `bundle${nth}`);
    expect(await register(page, site, email)).toBe(201);
    await signedIn(page, site, email, `/catalog/${sale}/0`);

    // The Carrousel tile's strip: the three products, each a link to its page.
    const strip = page.locator(`[data-item-id="${look}"] [data-testid="carousel"]`);
    await expect(strip.locator('a')).toHaveCount(3);
    await expect(page.getByTestId('carousel')).toHaveCount(1);
    await strip.locator(`a[href="/product/${sale}/${second}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/product/${sale}/${second}$`));

    const bundle = page.getByTestId('bundle');
    await expect(bundle.getByRole('heading', { name: t['product.bundle.title'] })).toBeVisible();
    await expect(bundle.getByTestId('bundle-item')).toHaveCount(3);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expectNoViolations(page);

    // Another size of the first product: the section comes back from the server with it
    // chosen and the total the page without scripts shows for the same choice.
    const select = bundle.getByTestId('bundle-option').first();
    const current = await select.inputValue();
    const other = await select
      .locator('option:not([disabled])')
      .evaluateAll((os, cur) => os.map((o) => (o as HTMLOptionElement).value).find((v) => v !== cur), current);
    expect(other, 'the first product has a second size in stock').toBeTruthy();
    await select.selectOption(other!);
    const name = await select.getAttribute('name');
    const plain = await (await page.request.get(`/product/${sale}/${second}?${name}=${other}`)).text();
    const expected = plain.match(/data-testid="bundle-price"[^>]*>([\s\S]*?)<\/p>/)![1]
      .replace(/<!--[^>]*-->|<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    await expect(bundle.getByTestId('bundle-price')).toHaveText(expected, { useInnerText: true });
    await expect(bundle.getByTestId('bundle-option').first()).toHaveValue(other!);

    // One button: the three products in the cart, each with the bundle's id.
    await bundle.getByTestId('bundle-add').click();
    await expect(page).toHaveURL(/\/cart(\?|$)/);
    const cart = await (await page.request.get('/api/cartproxy/v1')).json();
    const lines = cart.items.filter((l: { bundleId?: string }) => l.bundleId === String(sale));
    expect(lines.map((l: { itemId: number }) => l.itemId).sort()).toEqual([look, second, sale * 100 + 10]);
    expect(lines.find((l: { itemId: number }) => l.itemId === look).productId).toBe(other);
  });
}
