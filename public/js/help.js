// The help form (/helpform): it posts without scripts (server/src/forms/help.rs); this sends
// it through the REST calls instead and keeps the form's state as app/src/help/rules.rs
// says (spec 001 §4): choosing a reason clears the sub-reason, sale, order, message, errors
// and the sent flag (on an order's own form, /postsales/{id}/helpform, too: the member
// chooses the order again in its select); choosing a sub-reason clears the sale, order,
// message, errors and extra text; choosing a sale sets it and nothing else; choosing an
// order clears its error and the extra text. Sending asks for an automatic answer first
// (loading on until the answer is displayed); none, and the site takes tickets: the message
// goes to support at once (multipart with the files, 15 s timeout, where the site takes
// files; JSON otherwise); none, and it does not: the extra text shows. A bad rating sends
// the message as a ticket, or shows the extra text where the site takes no tickets.
// Texts come from the page (data-messages): the script never writes wording of its own.
// The reset rules and the checks before a send are rules::reduce and rules::check, tested
// against app/tests/vectors/help.json, which the Rust tests read too.
(() => {
  const MESSAGE_MIN = 10;
  const MESSAGE_MAX = 4000;
  const clearStateErrors = (s) => {
    s.reasonError = false;
    s.subReasonError = false;
    s.orderError = false;
    s.messageError = false;
    s.sendMessageError = null;
  };
  // rules::reduce, for what the form does before a send.
  function reduce(state, action) {
    const s = { ...state };
    switch (action.type) {
      case 'selectReason':
        s.selectedReason = action.value;
        s.selectedSubReason = null;
        s.selectedSale = null;
        s.selectedOrder = null;
        s.textAreaMessage = '';
        clearStateErrors(s);
        s.openOrderAlert = false;
        s.messageHasBeenSent = false;
        s.helpFormGenAiResponse = null;
        s.genAiResFeedbackError = null;
        break;
      case 'selectSubReason':
        s.selectedSubReason = action.value;
        s.selectedSale = null;
        s.selectedOrder = null;
        s.textAreaMessage = '';
        clearStateErrors(s);
        s.openOrderAlert = false;
        s.displayExtraText = false;
        break;
      case 'selectSale':
        s.selectedSale = action.value;
        break;
      case 'selectOrder':
        s.selectedOrder = action.value;
        s.orderError = false;
        s.openOrderAlert = false;
        s.displayExtraText = false;
        break;
      case 'setMessage':
        s.textAreaMessage = action.value;
        s.messageError = false;
        break;
      case 'invalid':
        action.fields.forEach((f) => {
          if (f === 'subjectId') s.reasonError = true;
          else if (f === 'subReasonId') s.subReasonError = true;
          else if (f === 'orderId') {
            s.orderError = true;
            s.openOrderAlert = true;
          } else if (f === 'body') s.messageError = true;
        });
        break;
      case 'sendStarted':
        s.loading = true;
        s.sendMessageError = null;
        break;
      case 'sendSucceeded':
        s.loading = false;
        s.messageHasBeenSent = true;
        break;
      case 'sendFailed':
        s.loading = false;
        s.sendMessageError = action.value;
        break;
      // An answer keeps loading on until it is displayed; none leaves it on for the step
      // that follows (the ticket send, or the extra text).
      case 'answerReceived':
        s.helpFormGenAiResponse = action.value;
        break;
      case 'answerDisplayed':
        s.loading = false;
        break;
      case 'showExtraText':
        s.loading = false;
        s.displayExtraText = true;
        break;
      case 'feedbackSent':
        s.genAiResFeedbackError = null;
        if (!action.good) s.messageHasBeenSent = true;
        break;
      case 'feedbackFailed':
        s.genAiResFeedbackError = action.value;
        break;
      default:
        break;
    }
    return s;
  }
  // rules::check: the faults that stop a send, in form order (wire names).
  function check(state, rule) {
    const faults = [];
    if (state.selectedReason !== null && state.selectedReason !== undefined && rule) {
      if (rule.hasSubReasons && (state.selectedSubReason === null || state.selectedSubReason === undefined)) faults.push('subReasonId');
      if (rule.needsOrder && (state.selectedOrder === null || state.selectedOrder === undefined)) faults.push('orderId');
    } else {
      faults.push('subjectId');
    }
    const len = [...state.textAreaMessage.trim()].length;
    if (len < MESSAGE_MIN || len > MESSAGE_MAX) faults.push('body');
    return faults;
  }
  // What the fields show for a state: the page's selects and message follow the state
  // alone (no fallback to the page's order: a new reason clears it, as rules::reduce does).
  function fieldValues(state) {
    const str = (v) => (v === null || v === undefined ? '' : String(v));
    return {
      subReason: str(state.selectedSubReason),
      sale: str(state.selectedSale),
      order: str(state.selectedOrder),
      body: str(state.textAreaMessage),
    };
  }
  window.__rosaceHelpRules = { reduce, check, fieldValues };

  if (window.__rosaceHelp) return;
  window.__rosaceHelp = true;

  const API = '/api/postsale/v1/help';
  const form = () => document.getElementById('help-form');
  const text = (key) => {
    try {
      return JSON.parse(form().dataset.messages)[key] || key;
    } catch (_) {
      return key;
    }
  };
  const xsrf = () => form().querySelector('input[name="_xsrf"]').value;
  const el = (tag, attrs, content) => {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (content !== undefined) e.textContent = content;
    return e;
  };

  const FIELDS = {
    subjectId: 'help-reason',
    subReasonId: 'help-sub',
    operationCode: 'help-sale',
    orderId: 'help-order',
    body: 'help-body',
  };
  const KEYS = {
    subjectId: 'help.errors.reason',
    subReasonId: 'help.errors.sub_reason',
    operationCode: 'help.errors.sale',
    orderId: 'help.errors.order',
    body: 'help.errors.message',
  };

  function setError(field, on) {
    const f = form();
    const input = document.getElementById(FIELDS[field]);
    const msg = f.querySelector(`[data-error-for="${field}"]`);
    if (input) {
      if (on) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    if (msg) {
      msg.textContent = on ? text(KEYS[field]) : '';
      msg.hidden = !on;
    }
    if (field === 'orderId') {
      const alert = f.querySelector('[data-order-alert]');
      if (alert) alert.hidden = !on;
    }
  }

  function clearErrors() {
    Object.keys(FIELDS).forEach((f) => setError(f, false));
    formError(null);
  }

  function formError(key) {
    const p = form().querySelector('[data-form-error]');
    p.textContent = key ? text(key) : '';
    p.hidden = !key;
  }

  function result() {
    return document.querySelector('[data-help-result]');
  }

  function setExtra(on) {
    const extra = document.querySelector('[data-testid="help-extra"]');
    if (extra) extra.hidden = !on;
  }

  // Only the chosen reason's sub-reasons are offered.
  function filterSubReasons() {
    const reason = document.getElementById('help-reason').value;
    const sub = document.getElementById('help-sub');
    let any = false;
    sub.querySelectorAll('optgroup').forEach((g) => {
      const mine = g.dataset.reason === reason;
      g.hidden = !mine;
      g.disabled = !mine;
      any = any || mine;
    });
    sub.closest('.field').hidden = !any;
  }

  function busy(on) {
    const f = form();
    f.setAttribute('aria-busy', on ? 'true' : 'false');
    f.querySelectorAll('button').forEach((b) => (b.disabled = on));
  }

  // The chat link follows the reason and the order chosen (rules::chat_link; isPastOrder
  // from the order option, rules::is_past_order on the server).
  function updateChatLink() {
    const link = document.querySelector('[data-testid="help-chat-link"]');
    if (!link) return;
    const reason = document.getElementById('help-reason').value || 'other';
    const order = document.getElementById('help-order');
    let href = `/chat?reason=${encodeURIComponent(reason)}`;
    if (order && order.value) {
      const chosen = order.options[order.selectedIndex];
      href += `&order=${order.value}&isPastOrder=${chosen.dataset.past === 'true'}`;
    }
    link.setAttribute('href', href);
  }

  async function call(path, body, timeoutMs) {
    const controller = new AbortController();
    const timer = timeoutMs ? setTimeout(() => controller.abort(), timeoutMs) : null;
    const multipart = body instanceof FormData;
    try {
      const headers = { 'X-XSRF-TOKEN': xsrf(), 'X-VP-Origin': 'web' };
      if (!multipart) headers['Content-Type'] = 'application/json';
      const res = await fetch(API + path, {
        method: 'POST',
        credentials: 'same-origin',
        headers,
        body: multipart ? body : JSON.stringify(body),
        signal: controller.signal,
      });
      let data = null;
      try {
        data = await res.json();
      } catch (_) {
        data = null;
      }
      return { ok: res.ok, status: res.status, data };
    } catch (e) {
      return { ok: false, status: 0, data: null, timeout: e && e.name === 'AbortError' };
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  function failure(res) {
    if (res.timeout) return 'help.errors.timeout';
    const key = res.data && res.data.error_description;
    if (key && key.startsWith('help.errors.')) return key;
    return res.status ? 'help.errors.send' : 'errors.general_retry.notification';
  }

  function showFieldErrors(data) {
    ((data && data.fieldErrors) || []).forEach((fe) => {
      if (FIELDS[fe.field]) setError(fe.field, true);
    });
  }

  function sent(ticketId) {
    const box = result();
    box.replaceChildren();
    const p = el('p', { class: 'account-notice', role: 'status', 'data-testid': 'help-sent' }, text('help.notice.sent'));
    if (ticketId) {
      p.append(' ', el('a', { href: `/my-notifications?ticket=${ticketId}` }, text('help.sent.link')));
    }
    box.append(p);
    form().reset();
    filterSubReasons();
    p.setAttribute('tabindex', '-1');
    p.focus();
  }

  function showAnswer(answer) {
    const box = result();
    box.replaceChildren();
    const section = el('section', { class: 'help-answer', 'data-testid': 'help-answer', 'aria-labelledby': 'help-answer-live' });
    const h2 = el('h2', { id: 'help-answer-live', tabindex: '-1' }, text('help.answer.title'));
    section.append(
      h2,
      el('h3', { 'data-testid': 'help-answer-article', 'data-article': answer.articleId }, answer.title),
      el('p', {}, answer.body),
      el('p', { class: 'help-answer__question' }, text('help.answer.question')),
    );
    const buttons = el('div', { class: 'help-answer__buttons' });
    [['good', 'help.answer.good', 'button button--primary'], ['bad', 'help.answer.bad', 'button']].forEach(([s, key, cls]) => {
      const b = el('button', { type: 'button', class: cls, 'data-testid': `help-rate-${s}` }, text(key));
      b.addEventListener('click', async () => {
        buttons.querySelectorAll('button').forEach((x) => (x.disabled = true));
        const res = await call(`/answer/${encodeURIComponent(answer.evaluationId)}`, {
          satisfaction: s,
          evaluationId: answer.evaluationId,
        });
        if (!res.ok) {
          buttons.querySelectorAll('button').forEach((x) => (x.disabled = false));
          section.append(el('p', { class: 'field__error', role: 'alert' }, text(failure(res))));
          return;
        }
        if (res.data.ticketId) {
          sent(res.data.ticketId);
        } else if (res.data.displayExtraText) {
          // A bad rating where the site takes no tickets: the other ways to reach us.
          box.replaceChildren();
          setExtra(true);
          const extra = document.querySelector('[data-testid="help-extra"]');
          if (extra) {
            extra.setAttribute('tabindex', '-1');
            extra.focus();
          }
        } else {
          box.replaceChildren(el('p', { class: 'account-notice', role: 'status', 'data-testid': 'help-thanks' }, text('help.notice.thanks')));
          form().reset();
          filterSubReasons();
        }
      });
      buttons.append(b);
    });
    section.append(buttons);
    box.append(section);
    h2.focus();
  }

  function payload() {
    const f = form();
    const reason = document.getElementById('help-reason');
    const sub = document.getElementById('help-sub');
    const order = document.getElementById('help-order');
    const sale = document.getElementById('help-sale');
    const label = (s) => (s.selectedIndex > 0 ? s.options[s.selectedIndex].textContent.trim() : '');
    const subjectId = sub.value ? `${reason.value}.${sub.value}` : reason.value;
    const title = [label(reason), label(sub)].filter(Boolean).join(' – ');
    return {
      contactFrom: 'Front',
      subjectId,
      subjectTitle: title,
      body: f.querySelector('#help-body').value.trim(),
      operationCode: sale && sale.value ? sale.value : null,
      orderId: order && order.value ? Number(order.value) : null,
    };
  }

  // The form's state as the rules see it, read from the fields.
  function domState() {
    const reason = document.getElementById('help-reason');
    const sub = document.getElementById('help-sub');
    const order = document.getElementById('help-order');
    const sale = document.getElementById('help-sale');
    return {
      selectedReason: reason.value || null,
      selectedSubReason: sub.value || null,
      selectedSale: sale && sale.value ? sale.value : null,
      selectedOrder: order && order.value ? Number(order.value) : null,
      textAreaMessage: document.getElementById('help-body').value,
    };
  }

  // rules::check before anything is sent.
  function checkForm() {
    const reason = document.getElementById('help-reason');
    const sub = document.getElementById('help-sub');
    const chosen = reason.options[reason.selectedIndex];
    const rule = reason.value
      ? {
          hasSubReasons: !!sub.querySelector(`optgroup[data-reason="${reason.value}"]`),
          needsOrder: chosen.dataset.needsOrder === 'true',
        }
      : null;
    const faults = check(domState(), rule);
    const next = reduce({}, { type: 'invalid', fields: faults });
    if (next.reasonError) setError('subjectId', true);
    if (next.subReasonError) setError('subReasonId', true);
    if (next.orderError) setError('orderId', true);
    if (next.messageError) setError('body', true);
    return faults.length === 0;
  }

  // Applies what rules::reduce left of a change to the fields.
  function apply(next) {
    const order = document.getElementById('help-order');
    const sale = document.getElementById('help-sale');
    const values = fieldValues(next);
    document.getElementById('help-sub').value = values.subReason;
    if (sale) sale.value = values.sale;
    if (order) order.value = values.order;
    document.getElementById('help-body').value = values.body;
    setError('subjectId', next.reasonError);
    setError('subReasonId', next.subReasonError);
    setError('operationCode', false);
    setError('orderId', next.orderError);
    setError('body', next.messageError);
    if (!next.sendMessageError) formError(null);
    setExtra(next.displayExtraText);
  }

  async function send(e) {
    e.preventDefault();
    const f = form();
    clearErrors();
    setExtra(false);
    result().replaceChildren();
    if (!checkForm()) {
      formError('help.errors.form');
      return;
    }
    const message = payload();
    const withFiles = () => {
      const data = new FormData();
      Object.entries(message).forEach(([k, v]) => {
        if (v !== null && v !== undefined) data.append(k, String(v));
      });
      const files = f.querySelector('#help-files');
      [...((files && files.files) || [])].forEach((file) => data.append('fileAttachments', file, file.name));
      return data;
    };
    const chosen = f.querySelector('#help-files');
    const hasFiles = f.dataset.attachments === 'true' && chosen && chosen.files && chosen.files.length > 0;
    // Loading follows rules::reduce: on at the send, off once the answer is displayed, the
    // ticket sent, the extra text shown or the send failed.
    let state = { ...domState(), loading: false, helpFormGenAiResponse: null };
    const step = (action) => {
      state = reduce(state, action);
      busy(state.loading);
    };
    step({ type: 'sendStarted' });
    try {
      // The files go with the question: an answer rated "not helpful" sends them to support.
      const found = await call('/answer', hasFiles ? withFiles() : message, hasFiles ? Number(f.dataset.timeout) || 15000 : 0);
      if (!found.ok) {
        showFieldErrors(found.data);
        formError(failure(found));
        step({ type: 'sendFailed', value: failure(found) });
        return;
      }
      const answer = found.data && found.data.answer;
      step({ type: 'answerReceived', value: answer ? [answer.evaluationId, answer.articleId] : null });
      if (answer) {
        showAnswer(answer);
        step({ type: 'answerDisplayed' });
        return;
      }
      if (f.dataset.tickets !== 'true') {
        setExtra(true);
        step({ type: 'showExtraText' });
        return;
      }
      let res;
      if (f.dataset.attachments === 'true') {
        res = await call('/contact', withFiles(), Number(f.dataset.timeout) || 15000);
      } else {
        res = await call('/contact', message);
      }
      if (!res.ok) {
        showFieldErrors(res.data);
        formError(failure(res));
        step({ type: 'sendFailed', value: failure(res) });
        return;
      }
      sent(res.data.ticketId);
      step({ type: 'sendSucceeded' });
    } catch (_) {
      formError('errors.general_retry.notification');
      step({ type: 'sendFailed', value: 'errors.general_retry.notification' });
    }
  }

  document.addEventListener('change', (e) => {
    const f = form();
    if (!f || !f.contains(e.target)) return;
    const extra = document.querySelector('[data-testid="help-extra"]');
    const now = {
      ...domState(),
      reasonError: false,
      subReasonError: false,
      orderError: false,
      messageError: false,
      openOrderAlert: false,
      sendMessageError: null,
      messageHasBeenSent: false,
      displayExtraText: !!extra && !extra.hidden,
    };
    ['subjectId', 'subReasonId', 'orderId', 'body'].forEach((field) => {
      const input = document.getElementById(FIELDS[field]);
      const on = !!input && input.getAttribute('aria-invalid') === 'true';
      if (field === 'subjectId') now.reasonError = on;
      else if (field === 'subReasonId') now.subReasonError = on;
      else if (field === 'orderId') now.orderError = on;
      else now.messageError = on;
    });
    if (e.target.id === 'help-reason') {
      apply(reduce(now, { type: 'selectReason', value: e.target.value }));
      result().replaceChildren();
      filterSubReasons();
    } else if (e.target.id === 'help-sub') {
      apply(reduce(now, { type: 'selectSubReason', value: e.target.value }));
    } else if (e.target.id === 'help-sale') {
      apply(reduce(now, { type: 'selectSale', value: e.target.value || null }));
    } else if (e.target.id === 'help-order') {
      apply(reduce(now, { type: 'selectOrder', value: e.target.value ? Number(e.target.value) : null }));
    }
    updateChatLink();
  });
  document.addEventListener('input', (e) => {
    if (e.target && e.target.id === 'help-body') setError('body', false);
  });
  document.addEventListener('submit', (e) => {
    if (e.target && e.target.id === 'help-form') send(e);
  });
  const init = () => form() && filterSubReasons();
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
  document.addEventListener('rosace:navigated', init);
})();
