// The order detail's after-sale forms (issue #14). They are server forms that post without
// scripts (server/src/forms/aftersale.rs); this sends them to the REST calls in place and
// shows the states of spec 001 §4 as the Rust rules say (app/src/orders/returns/rules.rs,
// app/src/orders/marketplace.rs, app/src/orders/ui/after_sale.rs):
// - returns form: pending resets the status; a success marks it submitted; a refusal with an
//   error code marks it submitted keeping the code; no answer or no code marks it submitted
//   with process_failure. A success leads back to the order with its new status.
// - marketplace: choosing a reason resets messageHasBeenSent; a sent message sets it and
//   clears the message; fetching the invoice sets openInvoice (its number shows).
// The rules below are tested against app/tests/vectors/aftersale.json, which the Rust tests
// read too. Texts come from the page (data-messages): the script writes no wording of its own.
// A classic script run again by in-app navigation: listeners are added once, on document.
(() => {
  const PROCESS_FAILURE = 'process_failure';
  const KNOWN_CODES = [
    'order_not_delivered',
    'return_window_closed',
    'invalid_quantity',
    'no_products',
    'unknown_product',
    'return_already_requested',
    'invalid_reason',
    'invalid_comment',
    'invalid_message',
    'not_marketplace_order',
    'order_not_invoiceable',
    PROCESS_FAILURE,
  ];

  // reduce_returns_form: the previous state does not matter.
  function reduceReturnsForm(_state, action) {
    switch (action.type) {
      case 'pending':
        return { loading: true, submitted: false, errorCode: null };
      case 'fulfilled':
        return { loading: false, submitted: true, errorCode: action.errorCode || null };
      default:
        return { loading: false, submitted: true, errorCode: PROCESS_FAILURE };
    }
  }
  const succeeded = (state) => state.submitted && !state.errorCode;
  const errorKey = (code) => `aftersale.errors.${KNOWN_CODES.includes(code) ? code : PROCESS_FAILURE}`;
  // answer_action: null means the session is gone (sign in again).
  function answerAction(status, errorCode) {
    if (status >= 200 && status <= 299) return { type: 'fulfilled', errorCode: null };
    if (status === 401) return null;
    return errorCode ? { type: 'fulfilled', errorCode } : { type: 'rejected' };
  }
  // marketplace::reduce_help.
  function reduceHelp(state, action) {
    const s = { ...state, selectedProducts: [...state.selectedProducts] };
    switch (action.type) {
      case 'selectReason':
        s.reasonId = action.id;
        s.messageHasBeenSent = false;
        break;
      case 'setMessage':
        s.message = action.message;
        break;
      case 'selectProduct':
        s.selectedProducts = s.selectedProducts.filter(([id]) => id !== action.productId);
        if (action.quantity > 0) s.selectedProducts.push([action.productId, action.quantity]);
        break;
      case 'messageSent':
        s.messageHasBeenSent = true;
        s.message = '';
        break;
      case 'returnSent':
        s.messageHasBeenSent = true;
        s.selectedProducts = [];
        break;
      case 'invoiceFetched':
        s.openInvoice = true;
        break;
      default:
        break;
    }
    return s;
  }
  window.__rosaceAftersaleRules = { reduceReturnsForm, succeeded, errorKey, answerAction, reduceHelp };

  if (window.__rosaceAftersale) return;
  window.__rosaceAftersale = true;

  const root = (el) => el.closest('[data-aftersale]');
  const text = (el, key, args) => {
    let s = key;
    try {
      s = JSON.parse(root(el).dataset.messages)[key] || key;
    } catch (_) {
      /* the key itself */
    }
    Object.entries(args || {}).forEach(([k, v]) => (s = s.replace(`{${k}}`, v)));
    return s;
  };
  const xsrf = (el) => {
    const input = root(el).querySelector('input[name="_xsrf"]');
    return input ? input.value : '';
  };
  const el = (tag, attrs, content) => {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (content !== undefined) e.textContent = content;
    return e;
  };
  const signIn = () => {
    let here = window.location.pathname + window.location.search;
    if (!here.startsWith('/gr/')) here = `/gr${here}`;
    window.location.assign(`/gr/authentication?ReturnUrl=${encodeURIComponent(here)}`);
  };

  async function call(node, url, body) {
    try {
      const headers = { 'X-XSRF-TOKEN': xsrf(node), 'X-VP-Origin': 'web' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      let data = null;
      try {
        data = await res.json();
      } catch (_) {
        data = null;
      }
      return { status: res.status, data };
    } catch (_) {
      return { status: 0, data: null };
    }
  }
  const codeOf = (data) => (data && typeof data.error_code === 'string' ? data.error_code : '');

  // Only the chosen reason's sub-reasons are offered (all of them without scripts).
  function filterSubReasons(form) {
    const reason = form.querySelector('[data-return-reason]');
    const sub = form.querySelector('[data-return-sub]');
    if (!reason || !sub) return;
    let any = false;
    sub.querySelectorAll('optgroup').forEach((g) => {
      const mine = g.dataset.reason === reason.value;
      g.hidden = !mine;
      g.disabled = !mine;
      any = any || mine;
    });
    sub.closest('[data-sub-field]').hidden = !any;
  }

  function renderReturns(form, state) {
    const button = form.querySelector('button[type="submit"]');
    button.disabled = state.loading;
    button.setAttribute('aria-busy', String(state.loading));
    button.textContent = text(form, state.loading ? 'aftersale.returns.sending' : 'aftersale.returns.send');
    const slot = form.querySelector('[data-form-status]');
    slot.replaceChildren();
    if (state.submitted && succeeded(state)) {
      slot.append(el('p', { class: 'account-notice', role: 'status', 'data-testid': 'return-success' }, text(form, 'aftersale.returns.success')));
    } else if (state.errorCode) {
      const key = errorKey(state.errorCode);
      slot.append(el('p', { class: 'error', role: 'alert', 'data-testid': 'return-error', 'data-code': state.errorCode }, text(form, key)));
    }
  }

  async function sendReturn(form) {
    if (form.dataset.loading === 'true') return;
    const products = Array.from(form.querySelectorAll('[data-product-id]'))
      .map((i) => ({ productId: i.dataset.productId, quantity: parseInt(i.value.trim(), 10) || 0 }))
      .filter((p) => p.quantity > 0);
    const marketplace = form.querySelector('input[name="action"]').value === 'marketplace_return';
    const reasonId = form.querySelector('[name="reasonId"]').value;
    const body = { products, reasonId };
    if (!marketplace) {
      const sub = form.querySelector('[name="subReasonId"]').value;
      const comment = form.querySelector('[name="comment"]').value;
      if (sub) body.subReasonId = sub;
      if (comment.trim()) body.comment = comment;
    }
    let state = reduceReturnsForm(null, { type: 'pending' });
    form.dataset.loading = 'true';
    renderReturns(form, state);
    const res = await call(form, form.dataset.api, body);
    form.dataset.loading = 'false';
    const action = answerAction(res.status, codeOf(res.data));
    if (!action) {
      signIn();
      return;
    }
    state = reduceReturnsForm(state, action);
    renderReturns(form, state);
    if (succeeded(state)) {
      window.location.assign(`${form.dataset.back}?aftersale_notice=aftersale.returns.success`);
    }
  }

  const helpStates = new WeakMap();
  function helpState(form) {
    if (!helpStates.has(form)) {
      helpStates.set(form, {
        message: form.querySelector('[name="message"]').value,
        reasonId: form.querySelector('[name="reasonId"]').value || null,
        selectedProducts: [],
        messageHasBeenSent: false,
        openInvoice: false,
      });
    }
    return helpStates.get(form);
  }
  function renderHelp(form, state, errorCodeKey) {
    form.querySelector('[name="message"]').value = state.message;
    form.querySelector('[data-testid="marketplace-sent"]').hidden = !state.messageHasBeenSent;
    const slot = form.querySelector('[data-form-status]');
    slot.replaceChildren();
    if (errorCodeKey) slot.append(el('p', { class: 'error', role: 'alert', 'data-testid': 'marketplace-error' }, text(form, errorCodeKey)));
  }
  function helpAct(form, action, errorCodeKey) {
    const state = reduceHelp(helpState(form), action);
    helpStates.set(form, state);
    renderHelp(form, state, errorCodeKey);
  }

  async function sendContact(form) {
    if (form.dataset.loading === 'true') return;
    const button = form.querySelector('button[type="submit"]');
    const state = helpState(form);
    form.dataset.loading = 'true';
    button.disabled = true;
    const res = await call(form, form.dataset.api, { message: state.message, reasonId: state.reasonId || '' });
    form.dataset.loading = 'false';
    button.disabled = false;
    if (res.status === 401) return signIn();
    if (res.status >= 200 && res.status <= 299) return helpAct(form, { type: 'messageSent' });
    renderHelp(form, state, errorKey(codeOf(res.data) || PROCESS_FAILURE));
  }

  async function requestInvoice(link) {
    const section = link.closest('[data-testid="marketplace-help"]');
    const form = section.querySelector('[data-aftersale-form="contact"]');
    const res = await call(link, link.dataset.invoiceRequest);
    if (res.status === 401) return signIn();
    if (res.status < 200 || res.status > 299) {
      renderHelp(form, helpState(form), errorKey(codeOf(res.data) || PROCESS_FAILURE));
      return;
    }
    helpAct(form, { type: 'invoiceFetched' });
    const number = res.data && res.data.invoiceNumber;
    const slot = section.querySelector('[data-invoice-number]');
    if (number && slot && helpState(form).openInvoice) {
      slot.textContent = text(link, 'aftersale.invoice.number_is', { number });
      slot.hidden = false;
    }
  }

  document.addEventListener('submit', (e) => {
    const form = e.target.closest && e.target.closest('form[data-aftersale-form]');
    if (!form) return;
    e.preventDefault();
    if (form.dataset.aftersaleForm === 'returns') sendReturn(form);
    else sendContact(form);
  });
  document.addEventListener('change', (e) => {
    const form = e.target.closest && e.target.closest('form[data-aftersale-form]');
    if (!form) return;
    if (form.dataset.aftersaleForm === 'returns' && e.target.matches('[data-return-reason]')) {
      const sub = form.querySelector('[data-return-sub]');
      if (sub) sub.value = '';
      filterSubReasons(form);
    } else if (form.dataset.aftersaleForm === 'contact' && e.target.name === 'reasonId') {
      helpAct(form, { type: 'selectReason', id: e.target.value });
    }
  });
  document.addEventListener('input', (e) => {
    const form = e.target.closest && e.target.closest('form[data-aftersale-form="contact"]');
    if (form && e.target.name === 'message') {
      helpStates.set(form, reduceHelp(helpState(form), { type: 'setMessage', message: e.target.value }));
    }
  });
  document.addEventListener('click', (e) => {
    const link = e.target.closest && e.target.closest('a[data-invoice-request]');
    if (link) requestInvoice(link); // the download itself goes on
  });
  const init = () => document.querySelectorAll('form[data-aftersale-form="returns"]').forEach(filterSubReasons);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
  document.addEventListener('rosace:navigated', init);
})();
