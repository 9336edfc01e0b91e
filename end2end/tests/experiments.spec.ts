import { test, expect, type BrowserContext } from '@playwright/test';

// Experiments: an anonymous visitor who accepted performance cookies gets the
// anonymous id cookie on the first page, keeps the same variation on every visit, and sees
// the feature it switches in the server's first HTML (dynamic pricing as a price display
// variant: the saving under the prices of the catalog tiles).
// The two ids below are pinned in app/src/experiments/rules_tests.rs (`ANON_ON`, `ANON_OFF`).
const ANON_ON = '00000000000000000000000000000001';
const ANON_OFF = '00000000000000000000000000000004';
const CATALOG = '/c/vente/1001/0?site=1';
const EXPERIMENT = 'anonymous_dynamic_pricing';

async function consentToPerformance(context: BrowserContext, baseURL: string) {
  await context.addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0', url: baseURL },
  ]);
}

async function variationOnPage(page: import('@playwright/test').Page): Promise<string | undefined> {
  const ctx = JSON.parse((await page.locator('html').getAttribute('data-ctx')) ?? '{}');
  const found = (ctx.experiments?.assigned ?? []).find((a: [string, string]) => a[0] === EXPERIMENT);
  return found?.[1];
}

test('an anonymous visitor keeps the same variation across visits and sees its feature', async ({ page, context, baseURL }) => {
  await consentToPerformance(context, baseURL!);
  const first = await page.goto(CATALOG);
  const setCookie = (await first!.allHeaders())['set-cookie'] ?? '';
  expect(setCookie).toMatch(/rosace_anon_id=[0-9a-f]{32}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=34128000/);
  const id = (await context.cookies()).find((c) => c.name === 'rosace_anon_id');
  expect(id?.httpOnly).toBe(true);
  const variation = await variationOnPage(page);
  expect(['on', 'off']).toContain(variation);
  const tiles = page.getByTestId('items-grid').locator('[data-item-id]');
  await expect(tiles.first()).toBeVisible();
  const savings = page.getByTestId('price-saving');
  // Visits later: the same id, the same variation, the same page.
  for (const visit of [1, 2, 3]) {
    const res = visit === 2 ? await page.reload() : await page.goto(`${CATALOG}&visit=${visit}`);
    expect((await res!.allHeaders())['set-cookie'] ?? '').not.toContain('rosace_anon_id=');
    expect((await context.cookies()).find((c) => c.name === 'rosace_anon_id')?.value).toBe(id!.value);
    expect(await variationOnPage(page)).toBe(variation);
    // In the server's HTML already (no flicker), and still there once hydrated.
    expect((await res!.text()).includes('data-testid="price-saving"')).toBe(variation === 'on');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    if (variation === 'on') await expect(savings.first()).toBeVisible();
    else await expect(savings).toHaveCount(0);
  }
  // The variations call, sent without credentials, answers the same for this id.
  const answer = await page.evaluate(async ([id, name]) => {
    const r = await fetch(`/api/abtesting/v1/sites/1/members/${id}/variations`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ experimentNames: [name] }),
    });
    return { status: r.status, body: await r.json() };
  }, [id!.value, EXPERIMENT]);
  expect(answer.status).toBe(200);
  expect(answer.body.variations[0]).toEqual({ experimentName: EXPERIMENT, variation, control: variation === 'off' });
});

test('the variation switches the page: the saving shows for "on" and not for "off"', async ({ browser, baseURL }) => {
  const seen: Record<string, number> = {};
  for (const [id, want] of [[ANON_ON, 'on'], [ANON_OFF, 'off']] as const) {
    const context = await browser.newContext({ baseURL });
    await consentToPerformance(context, baseURL!);
    await context.addCookies([{ name: 'rosace_anon_id', value: id, url: baseURL! }]);
    const page = await context.newPage();
    for (const _ of [1, 2]) {
      await page.goto(CATALOG);
      expect(await variationOnPage(page)).toBe(want);
      await expect(page.getByTestId('items-grid').locator('[data-item-id]').first()).toBeVisible();
      const savings = page.getByTestId('price-saving');
      seen[want] = await savings.count();
      if (want === 'on') {
        await expect(savings.first()).toBeVisible();
        await expect(savings.first()).toContainText('Vous économisez');
      } else {
        await expect(savings).toHaveCount(0);
      }
    }
    await context.close();
  }
  expect(seen.on).toBeGreaterThan(0);
  expect(seen.off).toBe(0);
});

test('without performance consent there is no anonymous id and the page is the control', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
    { name: 'rosace_anon_id', value: ANON_ON, url: baseURL! },
  ]);
  const page = await context.newPage();
  await page.goto(CATALOG);
  await expect(page.getByTestId('items-grid').locator('[data-item-id]').first()).toBeVisible();
  await expect(page.getByTestId('price-saving')).toHaveCount(0);
  expect((await context.cookies()).find((c) => c.name === 'rosace_anon_id')).toBeUndefined();
  expect(await variationOnPage(page)).toBeUndefined();
  await context.close();
});

// Holdback experiments: sponsored banners are launched, so they stay for the
// variation (`var2_programmatic`) and for everyone outside the experiments, and go for the
// small control. Pinned in app/src/experiments/rules_tests.rs: ANON_ON is in the
// variation of `anonymous_sponsored_banners`, ANON_NO_ADS in its control.
const ANON_NO_ADS = '00000000000000000000000000000018';
const SPONSORED = '[data-banner-kind="MediaAdsBanner"]';

async function homeAs(browser: import('@playwright/test').Browser, baseURL: string, id: string | null, perf: boolean) {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([
    { name: 'OptanonConsent', value: `groups=C0001:1,C0002:${perf ? 1 : 0},C0003:0,C0004:1,C0005:0`, url: baseURL },
    ...(id ? [{ name: 'rosace_anon_id', value: id, url: baseURL }] : []),
  ]);
  const page = await context.newPage();
  const adRequests: string[] = [];
  page.on('request', (r) => {
    if (/\/js\/ads(-demo)?\.js$/.test(new URL(r.url()).pathname)) adRequests.push(r.url());
  });
  const res = await page.goto('/?site=1');
  await expect(page.getByTestId('home')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const ctx = JSON.parse((await page.locator('html').getAttribute('data-ctx')) ?? '{}');
  const variation = (ctx.experiments?.assigned ?? []).find((a: [string, string]) => a[0] === 'anonymous_sponsored_banners')?.[1];
  return { context, page, html: await res!.text(), adRequests, variation };
}

test('sponsored banners: the holdback control goes without them, the variation and visitors outside keep them', async ({ browser, baseURL }) => {
  // The control: no sponsored banner in the first HTML nor later, no ad script asked for.
  const control = await homeAs(browser, baseURL!, ANON_NO_ADS, true);
  expect(control.variation).toBe('control');
  expect(control.html).not.toContain('data-banner-kind="MediaAdsBanner"');
  await expect(control.page.locator(SPONSORED)).toHaveCount(0);
  await expect(control.page.locator('[data-testid="banner-tile"]').first()).toBeVisible();
  await expect(control.page.locator('script[data-consent="C0004"]')).toHaveCount(0);
  expect(control.adRequests).toEqual([]);
  await control.context.close();
  // The variation: the banners and the ad script, as everyone had them before.
  const treated = await homeAs(browser, baseURL!, ANON_ON, true);
  expect(treated.variation).toBe('var2_programmatic');
  expect(treated.html).toContain('data-banner-kind="MediaAdsBanner"');
  await expect(treated.page.locator(SPONSORED).first()).toBeVisible();
  await expect(treated.page.locator('html')).toHaveAttribute('data-ads', 'loaded');
  expect(treated.adRequests.length).toBeGreaterThan(0);
  await treated.context.close();
  // Outside any experiment (performance cookies refused): the launched feature stays.
  const outside = await homeAs(browser, baseURL!, null, false);
  expect(outside.variation).toBeUndefined();
  await expect(outside.page.locator(SPONSORED).first()).toBeVisible();
  await expect(outside.page.locator('html')).toHaveAttribute('data-ads', 'loaded');
  await outside.context.close();
});
