// The travel configurator's form in place. The form is server HTML that works without
// scripts (its "Update" button sends it; the rules run on the server). This script sends
// it on each change instead and swaps in the form the server answers, keeps the address
// on the configuration (a reload or a shared link shows the same one), puts the focus back
// on the control the member was on, and reads the new price out. It repeats no rule.
// A classic script: in-app navigation (navigation.js) runs it again on every page that has
// it, so the document-wide listeners are added once and the per-page part runs each time.
(() => {
  const FORM = 'form[data-configurator]';
  const LIVE = 'config--live';
  for (const form of document.querySelectorAll(FORM)) form.classList.add(LIVE);
  if (window.__rosaceConfigurator) return;
  window.__rosaceConfigurator = true;

  let inflight = null;

  // What identifies a control across two renders of the form.
  function controlKey(el) {
    if (!(el instanceof HTMLElement) || !el.closest(FORM)) return null;
    if (el.id) return { id: el.id };
    if (el.name) return { name: el.name, value: el.value };
    return null;
  }
  function findControl(form, key) {
    if (!key) return null;
    if (key.id) return document.getElementById(key.id);
    return [...form.elements].find((el) => el.name === key.name && el.value === key.value) || null;
  }

  async function send(form, submitter) {
    const params = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) params.append(submitter.name, submitter.value);
    const url = new URL(form.getAttribute('action') || location.pathname, location.href);
    url.search = params.toString();
    if (inflight) inflight.abort();
    const mine = new AbortController();
    inflight = mine;
    const focus = controlKey(submitter || document.activeElement);
    form.setAttribute('aria-busy', 'true');
    try {
      const resp = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal: mine.signal });
      if (!resp.ok) throw new Error(`status ${resp.status}`);
      const doc = new DOMParser().parseFromString(await resp.text(), 'text/html');
      const next = doc.querySelector(FORM);
      if (!next) throw new Error('no configurator in the answer');
      if (inflight !== mine) return;
      next.classList.add(LIVE);
      const current = document.querySelector(FORM);
      current.replaceWith(document.adoptNode(next));
      history.replaceState(history.state, '', next.dataset.stateUrl || url.toString());
      const back = findControl(next, focus);
      if (back && !back.disabled) back.focus({ preventScroll: true });
      const status = document.querySelector('[data-config-status]');
      const summary = next.querySelector('.config__summary');
      if (status && summary) status.textContent = summary.innerText.replace(/\s+/g, ' ').trim();
      // The calendar widget's script may not have loaded yet: watch the new box.
      if (typeof window.__rosaceWatchWidgets === 'function') window.__rosaceWatchWidgets();
    } catch (e) {
      if (e && e.name === 'AbortError') return;
      // The server renders the same answer as a page.
      location.assign(url.toString());
    } finally {
      if (inflight === mine) {
        inflight = null;
        const form = document.querySelector(FORM);
        if (form) form.removeAttribute('aria-busy');
      }
    }
  }

  document.addEventListener('change', (ev) => {
    const form = ev.target instanceof Element && ev.target.closest(FORM);
    if (!form) return;
    // A date field sends once it holds a whole date (or is emptied).
    if (ev.target.type === 'date' && ev.target.validity.badInput) return;
    send(form, null);
  });
  document.addEventListener('submit', (ev) => {
    const form = ev.target instanceof Element && ev.target.closest(FORM);
    if (!form) return;
    ev.preventDefault();
    send(form, ev.submitter || null);
  });
  // A day picked in the calendar widget: the form's radio of that day, then the form.
  document.addEventListener('travel-calendar-select', (ev) => {
    const form = ev.target instanceof Element && ev.target.closest(FORM);
    const date = ev.detail && ev.detail.date;
    if (!form || typeof date !== 'string') return;
    const radio = [...form.elements].find((el) => el.name === 'checkin' && el.value === date);
    if (radio) radio.checked = true;
    else {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = 'checkin';
      input.value = date;
      form.appendChild(input);
    }
    send(form, null);
  });
})();
