// The address book and the cart's delivery step: the DOM glue of their forms. Plain JS
// loaded only by these pages (an island would put its code in the WASM every page loads).
// The forms post without it; with it, they go to the address service (REST, with the
// X-XSRF-TOKEN header), show a refusal in place, group the phone as the site writes it
// (the grouping comes from the page: data-phone-first / data-phone-rest, set by the Rust
// rule), keep names to letters, and ask before deleting.
// A classic script: in-app navigation runs it again on every page that has it, so the
// document-wide listeners are added once.
(() => {
  // A phone typed before this script ran is grouped too (per page, so before the guard).
  for (const input of document.querySelectorAll('input[data-phone-first]')) formatPhone(input);
  if (window.__rosaceAddresses) return;
  window.__rosaceAddresses = true;
  const API = '/api/address/v1';

  function messages(el) {
    const holder = el.closest('[data-messages]');
    try {
      return JSON.parse((holder && holder.dataset.messages) || '{}');
    } catch {
      return {};
    }
  }

  // Spec 001 §5: names take letters and spaces (and the apostrophes and hyphens names
  // carry); phones take digits and what people type between groups.
  const FILTERS = {
    name: /^[\p{L}\s'’.-]*$/u,
    phone: /^[0-9\s+().\/-]*$/,
  };
  document.addEventListener('beforeinput', (ev) => {
    const input = ev.target;
    if (!(input instanceof HTMLInputElement) || ev.data == null) return;
    const filter = FILTERS[input.dataset.keyFilter];
    if (filter && !filter.test(ev.data)) ev.preventDefault();
  });

  // The site's grouping: the first group, then groups of `rest` (0: the rest in one).
  // Function declarations: hoisted, so the per-page part above can use them.
  function groupPhone(value, first, rest) {
    const compact = value.replace(/[\s.\/-]/g, '');
    if (!/^[0-9]+$/.test(compact)) return value;
    const groups = [compact.slice(0, first)];
    let at = first;
    while (at < compact.length) {
      const size = rest > 0 ? rest : compact.length;
      groups.push(compact.slice(at, at + size));
      at += size;
    }
    return groups.filter(Boolean).join(' ');
  }
  function formatPhone(input) {
    const first = Number(input.dataset.phoneFirst);
    if (!first) return;
    const atEnd = input.selectionStart === input.value.length;
    const next = groupPhone(input.value, first, Number(input.dataset.phoneRest));
    if (next !== input.value && atEnd) input.value = next;
  }
  document.addEventListener('input', (ev) => {
    const input = ev.target;
    if (input instanceof HTMLInputElement && input.dataset.phoneFirst) formatPhone(input);
    // A field's error clears as the field changes.
    const field = input instanceof Element && input.closest('.field');
    const error = field && field.querySelector('[data-error-for]');
    if (error && !error.hidden) {
      error.hidden = true;
      input.removeAttribute('aria-invalid');
    }
  });

  function setBusy(form, busy) {
    const button = form.querySelector('button[type="submit"]');
    if (!button) return;
    if (busy) {
      button.dataset.label = button.textContent;
      button.textContent = messages(form)['common.loading'] || button.textContent;
    } else if (button.dataset.label) {
      button.textContent = button.dataset.label;
    }
    button.disabled = busy;
    button.setAttribute('aria-busy', String(busy));
    form.setAttribute('aria-busy', String(busy));
  }

  function showRefusal(form, body) {
    const texts = messages(form);
    const box = form.querySelector('[data-form-error]');
    const key = body && body.error_description;
    box.textContent = (body && body.message) || texts[key] || texts['errors.general_retry.notification'] || key || '';
    box.hidden = false;
    for (const el of form.querySelectorAll('[data-error-for]')) el.hidden = true;
    for (const fe of (body && body.fieldErrors) || []) {
      const el = form.querySelector(`[data-error-for="${CSS.escape(fe.field)}"]`);
      const input = form.querySelector(`[name="${CSS.escape(fe.field)}"]`);
      if (el) {
        el.textContent = texts[fe.messageKey] || fe.messageKey;
        el.hidden = false;
      }
      if (input) input.setAttribute('aria-invalid', 'true');
    }
    const firstBad = form.querySelector('[aria-invalid="true"]');
    (firstBad || box).focus && (firstBad || box).focus();
  }

  document.addEventListener('submit', async (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.hasAttribute('data-confirm-delete')) {
      if (!window.confirm(messages(form)['address.delete_confirm'] || '?')) ev.preventDefault();
      return;
    }
    if (!form.hasAttribute('data-address-form')) return;
    ev.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    const data = new FormData(form);
    const id = Number(data.get('id')) || null;
    const body = {};
    for (const name of ['firstName', 'lastName', 'details', 'extras', 'zipCode', 'city', 'country', 'phone']) {
      body[name] = String(data.get(name) || '');
    }
    body.isFavorite = data.get('isFavorite') === 'true';
    if (id) body.id = id;
    setBusy(form, true);
    try {
      const resp = await fetch(API, {
        method: id ? 'PUT' : 'POST',
        credentials: 'same-origin',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'X-XSRF-TOKEN': String(data.get('_xsrf') || ''),
          'X-VP-Origin': 'web',
        },
        body: JSON.stringify(body),
      });
      if (resp.ok) {
        // A fresh page shows the saved address where the server puts it.
        const back = form.dataset.returnTo || '';
        if (back === 'cart') {
          window.location.hash = 'delivery';
          window.location.reload();
        } else if (back.charAt(0) === '/') {
          // A checkout's own path, checked by the server before it wrote the form
          // (`address::rules::return_path`): the new address is offered there.
          window.location.assign(back);
        } else {
          window.location.assign('/postsales/myaccount/addresses/?notice=address.notice.saved');
        }
        return;
      }
      if (resp.status === 401) {
        window.location.assign(`/gr/authentication?ReturnUrl=${encodeURIComponent(location.pathname)}`);
        return;
      }
      showRefusal(form, await resp.json().catch(() => null));
    } catch {
      showRefusal(form, null);
    } finally {
      setBusy(form, false);
    }
  });

})();
