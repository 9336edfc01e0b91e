import { afterEach, describe, expect, it, vi } from 'vitest';
import { start } from './print';

afterEach(() => {
  document.body.innerHTML = '';
  document.body.removeAttribute('data-print-on-load');
  vi.restoreAllMocks();
});

describe('the print pages', () => {
  it('print on the button', () => {
    document.body.innerHTML = '<button type="button" id="print">Print</button>';
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    start();
    expect(print).not.toHaveBeenCalled();
    document.getElementById('print')!.click();
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('print once open when the page asks for it', () => {
    document.body.setAttribute('data-print-on-load', '');
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    start();
    if (document.readyState !== 'complete') window.dispatchEvent(new Event('load'));
    expect(print).toHaveBeenCalledTimes(1);
  });
});
