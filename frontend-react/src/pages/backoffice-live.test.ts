import { describe, expect, it } from 'vitest';
import { render, type Figures } from './backoffice-live';

describe('the dashboard writes each reading where the page marks it', () => {
  it('updates the figures and the option rows, and leaves unknown options alone', () => {
    document.body.innerHTML = `
      <div data-live-source="/x">
        <span data-live="at">old</span><dd data-live="line_length">0</dd><dd data-live="adds_per_second">0.0</dd>
        <table><tr data-live-option="7"><td data-field="stock">10</td><td data-field="held">0</td>
        <td data-field="sold">0</td><td data-field="available">10</td></tr></table>
      </div>`;
    const figures: Figures = {
      at: '2026-12-01 08:00:01',
      options: [
        { id: 7, product: 'Coat', label: 'M', stock: 10, held: 3, sold: 2, available: 5 },
        { id: 8, product: 'Coat', label: 'L', stock: 1, held: 0, sold: 0, available: 1 },
      ],
      adds_per_second: '4.2',
      payments_per_second: '0.1',
      refused_last_minute: 0,
      failed_last_minute: 0,
      line_length: 12,
      longest_wait_secs: 3,
    };
    render(document.body, figures);
    expect(document.querySelector('[data-live="at"]')?.textContent).toBe('2026-12-01 08:00:01');
    expect(document.querySelector('[data-live="line_length"]')?.textContent).toBe('12');
    expect(document.querySelector('[data-live="adds_per_second"]')?.textContent).toBe('4.2');
    const row = document.querySelector('[data-live-option="7"]')!;
    expect(row.querySelector('[data-field="held"]')?.textContent).toBe('3');
    expect(row.querySelector('[data-field="available"]')?.textContent).toBe('5');
  });
});
