import { expect, type Page } from '@playwright/test';

// The travel configurator is a form its page script sends on each change, swapping in the
// server's answer (the enhancement script, `frontend-react/src/pages/enhance.ts`); while a change is on its way the
// form is aria-busy. Steps that read or scroll the form wait for the answer first, as a
// member sees the new form before acting on it.
export async function configuratorSettled(page: Page): Promise<void> {
  await expect(page.getByTestId('trip-configurator')).not.toHaveAttribute('aria-busy', 'true');
}
