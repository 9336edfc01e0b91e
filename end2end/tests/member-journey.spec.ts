import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import {
  addAddress, bankDetails, savedCard, buyWithFavouriteAddress, changePassword, communications, deactivate,
  favouriteAddress, letters, memberEmail, orderShowsAddress, otherBrowser, personalData, register,
  signedIn,
} from './member-steps';

// The whole member journey, as one new member per site, on three sites in three
// languages per project (desktop: German, Italian, Dutch; phone: Spanish, French, French
// from Luxembourg with its own zip codes): an address refused for its zip code then saved
// → made the favourite → an item bought with it preselected → the order detail shows it
// → personal data changed → password changed (a browser signed in before is signed out)
// → an IBAN refused for its check digit then saved → the card saved at checkout listed and
// deleted → frequency NONE (the survey opens) → the partner opt-in withdrawn → a brand
// alert followed and dropped → deactivated (signed out, login code 6).

const sitesFor = (project: string) => (project === 'desktop' ? [2, 4, 76] : [3, 1, 73]);

for (const index of [0, 1, 2]) {
  test(`the member journey from address book to deactivation, site #${index + 1} of the project`, async ({ page, browser, baseURL }, info) => {
    test.setTimeout(180_000);
    const site = sitesFor(info.project.name)[index];
    const email = memberEmail(site, info.project.name, 'journey');
    expect(await register(page, site, email)).toBe(201);
    await signedIn(page, site, email);
    await expectNoViolations(page, '/myaccount');
    // A second browser signed in from the start, to be signed out by the password change.
    const other = await otherBrowser(browser, baseURL);
    await signedIn(other.page, site, email);

    await addAddress(page, site, `Maison ${letters()}`);
    const lastName = `Essai ${letters()}`;
    await favouriteAddress(page, site, lastName);
    // Products 30-32 of the first sale: none of the other specs buy them.
    await buyWithFavouriteAddress(page, site, lastName, 30 + index, true);
    await orderShowsAddress(page, site, lastName);
    await personalData(page, site);
    await changePassword(page, site, other.page, email);
    await other.context.close();
    await bankDetails(page, site);
    await savedCard(page, site);
    await communications(page, site);
    await deactivate(page, site, email);
  });
}
