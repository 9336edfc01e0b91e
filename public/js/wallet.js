// The member account's wallet, communications and vouchers pages: their forms post without
// scripts (server/src/forms/); this sends them to the REST calls instead, so a save shows
// in place, a field's error flag clears as the member changes that field, choosing NONE
// opens the cancel survey as a modal <dialog>, and a voucher toggles without a reload.
// Every call marks its form busy (aria-busy, buttons disabled) and clears it at the end.
// Texts come from the page (data-messages): the script never writes wording of its own.
// A classic script run again by in-app navigation: listeners are added once, on document.
(() => {
  if (window.__rosaceAccount) return;
  window.__rosaceAccount = true;

  const API = '/api/postsales/v1';
  const root = () => document.querySelector('[data-account-page]');
  const text = (key) => {
    try {
      return JSON.parse(root().dataset.messages)[key] || key;
    } catch (_) {
      return key;
    }
  };

  function notice(key, isError, link) {
    const page = root();
    const ok = page.querySelector('[data-testid="account-notice"]');
    const bad = page.querySelector('[data-testid="account-error"]');
    const [show, hide] = isError ? [bad, ok] : [ok, bad];
    hide.hidden = true;
    show.textContent = text(key);
    if (link) {
      const a = document.createElement('a');
      a.href = link.href;
      a.textContent = link.text;
      show.append(' ', a);
    }
    show.hidden = false;
  }

  async function call(form, method, path, body) {
    const buttons = form.querySelectorAll('button');
    form.setAttribute('aria-busy', 'true');
    buttons.forEach((b) => (b.disabled = true));
    try {
      const res = await fetch(API + path, {
        method,
        credentials: 'same-origin',
        headers: {
          'Content-Type': 'application/json',
          'X-XSRF-TOKEN': form.querySelector('input[name="_xsrf"]').value,
          'X-VP-Origin': 'web',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
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
      form.removeAttribute('aria-busy');
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  const failed = (r, fallback) =>
    notice((r.data && r.data.error_description) || fallback || 'errors.general_retry.notification', true);

  // --- Wallet -------------------------------------------------------------------------
  function setFieldError(form, field, key) {
    const input = form.querySelector(`[name="${field}"]`);
    const slot = form.querySelector(`[data-error-for="${field}"]`);
    if (!input || !slot) return;
    if (key) {
      slot.textContent = text(key);
      slot.hidden = false;
      input.setAttribute('aria-invalid', 'true');
    } else {
      slot.textContent = '';
      slot.hidden = true;
      input.removeAttribute('aria-invalid');
    }
  }

  function showStored(iban) {
    const box = document.querySelector('[data-testid="stored-iban"]');
    if (!box) return;
    box.hidden = !iban;
    if (!iban) return;
    box.querySelector('[data-testid="stored-iban-masked"]').textContent = iban.masked;
    box.querySelector('[data-testid="stored-iban-meta"]').textContent = `${iban.ownerName} · ${iban.bic}`;
    box.querySelector('input[name="guid"]').value = iban.id;
  }

  async function saveBank(form) {
    const formError = form.querySelector('[data-form-error]');
    const body = {
      iban: form.elements.iban.value,
      bic: form.elements.bic.value,
      ownerName: form.elements.ownerName.value,
      confirmation: form.elements.confirmation.checked,
    };
    const r = await call(form, 'POST', '/wallet/bankdetails', body);
    for (const f of ['iban', 'bic', 'ownerName', 'confirmation']) setFieldError(form, f, null);
    if (r.ok) {
      formError.hidden = true;
      form.reset();
      showStored(r.data.iban);
      notice('myprofile.text.bank_details.notification');
      return;
    }
    for (const e of (r.data && r.data.fieldErrors) || []) setFieldError(form, e.field, e.messageKey);
    formError.textContent = text('errors.something_wrong.notification');
    formError.hidden = false;
    const first = form.querySelector('[aria-invalid="true"]');
    if (first) first.focus();
  }

  async function deleteIban(form) {
    const r = await call(form, 'DELETE', `/wallet/bankdetails/${encodeURIComponent(form.elements.guid.value)}`);
    if (!r.ok) return failed(r);
    showStored(null);
    notice('wallet.notice.iban_deleted');
  }

  async function deleteCard(form) {
    const r = await call(form, 'DELETE', `/wallet/paymentmethods/${encodeURIComponent(form.elements.guid.value)}`);
    if (!r.ok) return failed(r);
    form.closest('li').remove();
    const empty = document.querySelector('[data-testid="cards-empty"]');
    if (empty) empty.hidden = r.data.paymentMethods.length > 0;
    notice('wallet.notice.card_deleted');
  }

  // --- Communications -----------------------------------------------------------------
  async function savePreferences(form) {
    const body = {
      communicationChannel: (form.querySelector('[name="communicationChannel"]:checked') || {}).value,
      communicationModel: (form.querySelector('[name="communicationModel"]:checked') || {}).value,
    };
    const r = await call(form, 'PUT', '/communications', body);
    if (!r.ok) return failed(r);
    notice('communications.notice.saved');
    if (r.data.cancelSurvey) {
      const dialog = document.getElementById('cancel-survey');
      dialog.querySelector('input[name="subscriptionId"]').value = r.data.subscriptionId;
      if (dialog.open) dialog.close();
      dialog.showModal();
    }
  }

  async function sendSurvey(form) {
    const reason = form.querySelector('[name="cancelReasonId"]:checked');
    if (!reason) return form.reportValidity();
    const body = {
      cancelReasonId: Number(reason.value),
      subscriptionId: Number(form.elements.subscriptionId.value),
    };
    const r = await call(form, 'POST', '/communications/subscription/cancel', body);
    form.closest('dialog').close();
    if (!r.ok) return failed(r);
    notice('communications.notice.cancelled');
  }

  async function saveOptins(form) {
    const body = {
      isOptinPerso: form.elements.isOptinPerso.checked,
      isOptinPartner: form.elements.isOptinPartner.checked,
    };
    const r = await call(form, 'POST', '/communications/optins', body);
    if (!r.ok) return failed(r);
    notice('communications.notice.saved');
  }

  async function savePartners(form) {
    const settings = [...form.querySelectorAll('input[name="partnerOn"]')].map((box) => ({
      id: Number(box.value),
      status: box.checked,
    }));
    const r = await call(form, 'POST', '/communications/commercialpartners', {
      memberCommercialPartnerSettings: settings,
    });
    if (!r.ok) return failed(r);
    notice('communications.notice.saved');
  }

  async function brandAlert(form, follow) {
    const id = form.elements.brandId.value;
    const r = await call(form, follow ? 'PUT' : 'DELETE', `/brandalerts/${encodeURIComponent(id)}`);
    if (!r.ok) return failed(r);
    // The item moves to the other list, its button switching to the opposite action.
    const item = form.closest('li');
    const target = document.querySelector(follow ? '[data-testid="brands-followed"]' : '[data-testid="brands-options"]');
    const action = follow ? 'unfollow' : 'follow';
    form.dataset.brandForm = action;
    form.elements.action.value = action;
    const button = form.querySelector('button');
    const label = text(`communications.brands.${action}`);
    button.textContent = label;
    button.setAttribute('aria-label', `${label} ${item.querySelector('span').textContent}`);
    target.prepend(item);
    document.querySelector('[data-testid="brands-empty"]').hidden = r.data.brands.length > 0;
    notice(follow ? 'communications.notice.brand_followed' : 'communications.notice.brand_unfollowed');
  }

  // --- Vouchers -----------------------------------------------------------------------
  async function toggleVoucher(form) {
    const participation = form.elements.participationId.value;
    const body = {
      voucherId: Number(form.elements.voucherId.value),
      participationId: participation === '' ? null : Number(participation),
    };
    const r = await call(form, 'POST', '/vouchers/selection', body);
    if (!r.ok) return failed(r);
    const selected = r.data.selection.some(
      (s) => s.voucherId === body.voucherId && (s.participationId ?? null) === body.participationId,
    );
    for (const f of document.querySelectorAll('form[data-voucher-form]')) {
      const p = f.elements.participationId.value;
      const on = r.data.selection.some(
        (s) => s.voucherId === Number(f.elements.voucherId.value) && (s.participationId ?? null) === (p === '' ? null : Number(p)),
      );
      const button = f.querySelector('button');
      button.setAttribute('aria-pressed', String(on));
      button.textContent = text(on ? 'vouchers.unselect' : 'vouchers.select');
      f.closest('li').dataset.selected = String(on);
    }
    const cart = document.querySelector('[data-testid="vouchers-cart-link"]');
    notice(selected ? 'vouchers.notice.selected' : 'vouchers.notice.unselected', false, selected && cart ? { href: cart.href, text: cart.textContent } : null);
  }

  async function print(form) {
    const r = await call(form, 'POST', '/vouchers/print');
    if (!r.ok) return failed(r);
    const slot = document.querySelector('[data-testid="print-link-slot"]');
    slot.replaceChildren();
    const a = document.createElement('a');
    a.href = r.data.printUrl;
    a.target = '_blank';
    a.rel = 'noopener';
    a.dataset.testid = 'print-link';
    a.textContent = text('vouchers.print_open');
    slot.append(a);
  }

  const HANDLERS = {
    save: saveBank,
    delete_iban: deleteIban,
    delete_card: deleteCard,
    preferences: savePreferences,
    cancel: sendSurvey,
    optins: saveOptins,
    partners: savePartners,
    follow: (f) => brandAlert(f, true),
    unfollow: (f) => brandAlert(f, false),
    toggle: toggleVoucher,
    print,
  };

  document.addEventListener('submit', (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement) || !form.closest('[data-account-page]')) return;
    const handler = HANDLERS[form.elements.action && form.elements.action.value];
    if (!handler || typeof window.fetch !== 'function') return;
    ev.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    handler(form);
  });

  // A field's error flag clears when that field changes, and only that one.
  const clearOwn = (ev) => {
    const input = ev.target;
    const form = input.form;
    if (!form || !form.closest('[data-account-page="wallet"]') || !input.name) return;
    setFieldError(form, input.name, null);
  };
  document.addEventListener('input', clearOwn);
  document.addEventListener('change', clearOwn);

  // The survey's "skip" closes the dialog in place.
  document.addEventListener('click', (ev) => {
    const skip = ev.target instanceof Element && ev.target.closest('[data-survey-close]');
    const dialog = skip && skip.closest('dialog');
    if (!dialog) return;
    ev.preventDefault();
    dialog.close();
  });
})();
