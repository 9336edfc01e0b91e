import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMetricQueue, type Metric } from './queue';

const m = (i: number): Metric => ({ name: `m${i}`, value: i, type: 'count', tags: {} });

describe('metrics queue flush rules (50 items / 1 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends 1 s after the first queued measure, all that waited, once', () => {
    const send = vi.fn();
    const q = createMetricQueue({ send });
    q.push(m(1));
    vi.advanceTimersByTime(600);
    q.push(m(2)); // does not restart the clock
    vi.advanceTimersByTime(399);
    expect(send).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith([m(1), m(2)], false);
    expect(q.size()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends at once when the 50th is queued, and the 51st starts a new wait', () => {
    const send = vi.fn();
    const q = createMetricQueue({ send });
    for (let i = 0; i < 49; i++) q.push(m(i));
    expect(send).not.toHaveBeenCalled();
    q.push(m(49));
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0][0]).toHaveLength(50);
    q.push(m(50));
    vi.advanceTimersByTime(999);
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1][0]).toEqual([m(50)]);
  });

  it('the 50-item send cancels the pending timer', () => {
    const send = vi.fn();
    const q = createMetricQueue({ send });
    q.push(m(0));
    for (let i = 1; i < 50; i++) q.push(m(i));
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('flush sends what waits (keepalive when leaving) and nothing when empty', () => {
    const send = vi.fn();
    const q = createMetricQueue({ send });
    q.flush(true);
    expect(send).not.toHaveBeenCalled();
    q.push(m(1));
    q.flush(true);
    expect(send).toHaveBeenCalledWith([m(1)], true);
    vi.advanceTimersByTime(2000);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
