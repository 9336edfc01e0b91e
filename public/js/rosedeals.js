// The rose-deals pages (issue #14): sends the refund, retry and contact forms to the REST
// calls (multipart for refund and retry, as spec 001 §7 says; 15 s timeout), shows the
// server's error code as the page's text (data-messages: the script never writes wording
// of its own), and after a successful refund or retry fetches page 1 of the current and
// archived lists in parallel (spec 001 §4) before moving on.
// Without scripts the forms post to server/src/forms/rosedeals.rs (multipart, redirects).
// The rules repeated from app/src/rosedeals/rules.rs (the refund state, the error keys, the
// contact message's "Missing values" check) are tested against app/tests/vectors/rosedeals.json,
// which the Rust tests read too.
// A classic script run again by in-app navigation: listeners are added once, on document.
(() => {
  const POST_ERROR = 'post_error';
  // rules::reduce_refund.
  function reduceRefund(state, action) {
    const n = { ...state };
    switch (action.type) {
      case 'refundPending':
      case 'retryPending':
        n.loading = true;
        n.error = false;
        n.errorCode = null;
        n.success = false;
        break;
      case 'refundSuccess':
        n.loading = false;
        n.success = true;
        n.amount = action.amount;
        n.iban = '';
        n.ibanStored = false;
        break;
      case 'retrySuccess':
        n.loading = false;
        n.success = true;
        break;
      default:
        // refundRejected, retryRejected
        n.loading = false;
        n.error = true;
        if (action.code) {
          n.errorCode = action.code;
        } else {
          n.errorCode = POST_ERROR;
          if (action.type === 'refundRejected') n.iban = '';
        }
    }
    return n;
  }
  // rules::refresh_after: page 1 of both lists after a success.
  const refreshAfter = (action) =>
    action.type === 'refundSuccess' || action.type === 'retrySuccess' ? [['current', 1], ['archived', 1]] : null;
  // rules::error_key.
  const ERROR_KEYS = {
    invalid_iban: 'rosedeals.errors.invalid_iban',
    already_refunded: 'rosedeals.errors.already_refunded',
    nothing_to_refund: 'rosedeals.errors.nothing_to_refund',
    missing_values: 'rosedeals.errors.missing_values',
    no_iban: 'rosedeals.errors.no_iban',
  };
  const errorKey = (body) =>
    (body && Object.prototype.hasOwnProperty.call(ERROR_KEYS, body.error_code) && ERROR_KEYS[body.error_code]) ||
    'errors.general_retry.notification';
  // rules::address_present and rules::check_contact ("Missing values").
  const addressPresent = (a) =>
    ['firstName', 'lastName', 'city', 'country'].every((f) => String(a[f] || '').trim() !== '');
  const checkContact = (m) =>
    !!m.address && addressPresent(m.address) && (m.vouchers || []).some((v) => String(v).trim() !== '')
      ? null
      : 'Missing values';
  window.__rosaceDealsRules = { reduceRefund, refreshAfter, errorKey, addressPresent, checkContact };

  if (window.__rosaceDeals) return;
  window.__rosaceDeals = true;

  const API = '/api/rosedeals/v1';
  const root = () => document.querySelector('[data-rosedeals-page]');
  const text = (key) => {
    try {
      return JSON.parse(root().dataset.messages)[key] || key;
    } catch (_) {
      return key;
    }
  };
  // An attachment refusal names its own message (the DSA report's); else the code's key.
  const keyOf = (data) => {
    const field = data && data.fieldErrors && data.fieldErrors[0];
    if (data && data.error_code === 'invalid_attachment' && field && field.messageKey && field.messageKey.startsWith('dsaform.')) {
      return field.messageKey;
    }
    return errorKey(data);
  };

  async function call(method, path, body, json) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15000);
    try {
      const headers = { 'X-XSRF-TOKEN': root().dataset.xsrf, 'X-VP-Origin': 'web' };
      if (json) headers['Content-Type'] = 'application/json';
      const res = await fetch(API + path, {
        method,
        credentials: 'same-origin',
        headers,
        body,
        signal: controller.signal,
      });
      let data = null;
      try {
        data = await res.json();
      } catch (_) {
        data = null;
      }
      return { ok: res.ok, status: res.status, data };
    } catch (_) {
      return { ok: false, status: 0, data: null };
    } finally {
      clearTimeout(timer);
    }
  }

  // Spec 001 §4/§8: both lists, page 1, in parallel; a failure is logged and rethrown.
  async function refreshLists() {
    const one = (kind, log) =>
      call('GET', `/orders/${kind}?page=1`).then((r) => {
        if (!r.ok) {
          console.error(log);
          throw new Error(log);
        }
        return r.data;
      });
    try {
      await Promise.all([
        one('current', 'cannot fetch rosedeals current orders'),
        one('archived', 'cannot fetch rosedeals archived orders'),
      ]);
    } catch (_) {
      /* logged above; the next page renders the lists from the server anyway */
    }
  }

  function address(form) {
    const v = (n) => (form.querySelector(`[name="${n}"]`) || { value: '' }).value.trim();
    return {
      city: v('city'),
      country: v('country'),
      details: v('details'),
      firstName: v('firstName'),
      lastName: v('lastName'),
      zipCode: v('zipCode'),
      extras: v('extras'),
    };
  }
  const checked = (form, name) =>
    Array.from(form.querySelectorAll(`input[name="${name}"]:checked`)).map((i) => i.value);

  function busy(form, on) {
    form.setAttribute('aria-busy', on ? 'true' : 'false');
    form.querySelectorAll('button').forEach((b) => (b.disabled = on));
  }
  function showError(form, key, field) {
    const general = form.querySelector('[data-form-error]');
    form.querySelectorAll('[data-error-for]').forEach((e) => (e.hidden = true));
    form.querySelectorAll('[aria-invalid]').forEach((e) => e.removeAttribute('aria-invalid'));
    if (field) {
      const slot = form.querySelector(`[data-error-for="${field}"]`);
      const input = form.querySelector(`[name="${field}"]`);
      if (slot) {
        slot.textContent = text(key);
        slot.hidden = false;
      }
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
    }
    general.textContent = text(key);
    general.hidden = false;
  }
  function notice(key) {
    const n = root().querySelector('[data-testid="rosedeals-notice"]');
    n.textContent = text(key);
    n.hidden = false;
  }

  async function refund(form) {
    const id = form.dataset.basketId;
    const body = new FormData();
    body.append('address', JSON.stringify(address(form)));
    body.append('content', form.querySelector('[name="content"]').value);
    body.append('iban', form.querySelector('[name="iban"]').value);
    body.append('isSuspended', String(form.querySelector('[name="isSuspended"]').checked));
    body.append('storeIban', String(form.querySelector('[name="storeIban"]').checked));
    const iban = form.querySelector('[name="iban"]');
    let state = reduceRefund({ iban: iban.value, ibanStored: false, amount: null }, { type: 'refundPending' });
    const r = await call('POST', `/orders/${id}/refund`, body);
    const code = (r.data && r.data.error_code) || null;
    const action = r.ok ? { type: 'refundSuccess', amount: r.data && r.data.amount } : { type: 'refundRejected', code };
    state = reduceRefund(state, action);
    iban.value = state.iban;
    if (r.ok) {
      if (refreshAfter(action)) await refreshLists();
      window.location.assign(`/rosedeals/refund-result?basketId=${encodeURIComponent(id)}`);
      return;
    }
    showError(form, keyOf(r.data), code === 'invalid_iban' || code === 'no_iban' ? 'iban' : null);
  }

  async function retry(form) {
    const id = form.dataset.basketId;
    const body = new FormData();
    body.append('address', JSON.stringify(address(form)));
    body.append('content', form.querySelector('[name="content"]').value);
    body.append('vouchers', JSON.stringify(checked(form, 'vouchers')));
    const r = await call('POST', `/orders/${id}/retry`, body);
    if (r.ok) {
      if (refreshAfter({ type: 'retrySuccess' })) await refreshLists();
      window.location.assign('/rosedeals/ongoing');
      return;
    }
    showError(form, keyOf(r.data), null);
  }

  async function contact(form) {
    const message = {
      subject: form.querySelector('[name="subject"]').value.trim(),
      message: form.querySelector('[name="message"]').value.trim(),
      vouchers: checked(form, 'vouchers'),
      address: address(form),
    };
    if (!message.address.firstName && !message.address.lastName) message.address = null;
    if (checkContact(message)) {
      console.error('send message error: Missing values');
      showError(form, 'rosedeals.errors.missing_values', null);
      return;
    }
    const r = await call('POST', '/messages', JSON.stringify(message), true);
    if (!r.ok) {
      if (r.data && r.data.error_code === 'missing_values') console.error('send message error: Missing values');
      showError(form, keyOf(r.data), null);
      return;
    }
    const files = form.querySelector('[name="attachments"]').files;
    if (files && files.length) {
      const body = new FormData();
      Array.from(files).forEach((f) => body.append('attachments', f, f.name));
      const up = await call('POST', `/rmi/${encodeURIComponent(r.data.requestId)}`, body);
      if (!up.ok) {
        notice('rosedeals.contact.sent');
        showError(form, keyOf(up.data), null);
        return;
      }
    }
    window.location.assign('/rosedeals/mail');
  }

  document.addEventListener('submit', async (ev) => {
    const form = ev.target.closest && ev.target.closest('form[data-rosedeals-form]');
    if (!form) return;
    ev.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    busy(form, true);
    try {
      const kind = form.dataset.rosedealsForm;
      if (kind === 'refund') await refund(form);
      else if (kind === 'retry') await retry(form);
      else if (kind === 'contact') await contact(form);
    } finally {
      busy(form, false);
    }
  });
})();
