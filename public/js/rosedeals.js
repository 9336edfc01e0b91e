// The rose-deals pages (issue #14): sends the refund, retry and contact forms to the REST
// calls (multipart for refund and retry, as spec 001 §7 says; 15 s timeout), shows the
// server's error code as the page's text (data-messages: the script never writes wording
// of its own; a refund or retry refusal carries it as `errorCode`, spec 001 §7, and as
// `error_code`), and after a successful refund or retry moves to a page the server renders
// from page 1 of both lists fetched again, concurrently (spec 001 §4): the refund's result
// or the ongoing deals, both with the lists' counts.
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
  // rules::reduce_contact: pending sets loading, fulfilled sets sent, rejected stores the error.
  function reduceContact(state, action) {
    const n = { ...state };
    if (action.type === 'pending') {
      n.loading = true;
      n.error = null;
    } else if (action.type === 'fulfilled') {
      n.loading = false;
      n.sent = true;
      n.error = null;
    } else {
      n.loading = false;
      n.error = action.error;
    }
    return n;
  }
  // rules::refusal_code: `errorCode` first, else `error_code`.
  const refusalCode = (body) => (body && (body.errorCode || body.error_code)) || null;
  // rules::error_key.
  const ERROR_KEYS = {
    invalid_iban: 'rosedeals.errors.invalid_iban',
    already_refunded: 'rosedeals.errors.already_refunded',
    nothing_to_refund: 'rosedeals.errors.nothing_to_refund',
    missing_values: 'rosedeals.errors.missing_values',
    no_iban: 'rosedeals.errors.no_iban',
  };
  const errorKey = (body) => {
    const code = refusalCode(body);
    return (code && Object.prototype.hasOwnProperty.call(ERROR_KEYS, code) && ERROR_KEYS[code]) ||
      'errors.general_retry.notification';
  };
  // rules::address_present and rules::check_contact ("Missing values").
  const addressPresent = (a) =>
    ['firstName', 'lastName', 'city', 'country'].every((f) => String(a[f] || '').trim() !== '');
  const checkContact = (m) =>
    !!m.address && addressPresent(m.address) && (m.vouchers || []).some((v) => String(v).trim() !== '')
      ? null
      : 'Missing values';
  // Where a success goes: a page rendered from page 1 of both lists, fetched again.
  const nextPage = (action, id) => {
    const lists = refreshAfter(action);
    if (!lists) return null;
    return action.type === 'refundSuccess'
      ? `/rosedeals/refund-result?basketId=${encodeURIComponent(id)}`
      : `/rosedeals/ongoing?page=${lists[0][1]}&notice=rosedeals.retry.done`;
  };
  window.__rosaceDealsRules = {
    reduceRefund,
    refreshAfter,
    reduceContact,
    refusalCode,
    errorKey,
    addressPresent,
    checkContact,
    nextPage,
  };

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
    if (data && refusalCode(data) === 'invalid_attachment' && field && field.messageKey && field.messageKey.startsWith('dsaform.')) {
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
    const code = refusalCode(r.data);
    const action = r.ok ? { type: 'refundSuccess', amount: r.data && r.data.amount } : { type: 'refundRejected', code };
    state = reduceRefund(state, action);
    iban.value = state.iban;
    const next = nextPage(action, id);
    if (next) {
      window.location.assign(next);
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
    const action = r.ok ? { type: 'retrySuccess' } : { type: 'retryRejected', code: refusalCode(r.data) };
    const next = nextPage(action, id);
    if (next) {
      window.location.assign(next);
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
    let state = reduceContact({ loading: false, sent: false, error: null }, { type: 'pending' });
    if (checkContact(message)) {
      console.error('send message error: Missing values');
      state = reduceContact(state, { type: 'rejected', error: 'rosedeals.errors.missing_values' });
      showError(form, state.error, null);
      return;
    }
    const r = await call('POST', '/messages', JSON.stringify(message), true);
    if (!r.ok) {
      if (refusalCode(r.data) === 'missing_values') console.error('send message error: Missing values');
      state = reduceContact(state, { type: 'rejected', error: keyOf(r.data) });
      showError(form, state.error, null);
      return;
    }
    state = reduceContact(state, { type: 'fulfilled' });
    const files = form.querySelector('[name="attachments"]').files;
    if (files && files.length) {
      const body = new FormData();
      Array.from(files).forEach((f) => body.append('attachments', f, f.name));
      const up = await call('POST', `/rmi/${encodeURIComponent(r.data.requestId)}`, body);
      if (!up.ok) {
        // The message went; its files did not.
        state = reduceContact(state, { type: 'rejected', error: keyOf(up.data) });
        if (state.sent) notice('rosedeals.contact.sent');
        showError(form, state.error, null);
        return;
      }
    }
    if (state.sent) window.location.assign('/rosedeals/mail');
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
