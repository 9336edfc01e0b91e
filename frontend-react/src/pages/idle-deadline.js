// @ts-check
// Runs inline, first thing in the head of every page with islands (app/src/app.rs
// `IdleDeadline`), so plain script without imports: Leptos' island script, inline right
// after it, imports the page's module from `requestIdleCallback` without a time-out, and a
// browser that finds no idle period (a busy tab, a loaded machine; seen in headless
// Chromium) left the page never interactive. Calls without a time-out get one: the callback
// runs once, at the first idle period or after 2 s.
(() => {
  const idle = window.requestIdleCallback;
  if (!idle) return;
  /** @type {(callback: IdleRequestCallback, options?: IdleRequestOptions) => number} */
  window.requestIdleCallback = (callback, options) => {
    if (options && options.timeout) return idle.call(window, callback, options);
    let done = false;
    /** @param {IdleDeadline} deadline */
    const once = (deadline) => {
      if (done) return;
      done = true;
      callback(deadline);
    };
    setTimeout(() => once({ didTimeout: true, timeRemaining: () => 0 }), 2000);
    return idle.call(window, once);
  };
})();
