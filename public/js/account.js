// My account pages (/myaccount, /myaccount/memberdata). Their forms post without scripts
// (server/src/forms/account.rs); this sends them to the REST calls instead, so a save shows
// in place with each field's message, a confirmation is a modal <dialog>, and the key
// filters of spec 000 §5 apply (names: letters and space; numbers: digits; the birth date:
// digits and its separator). Every call marks its form busy (aria-busy, buttons disabled)
// and clears it at the end. Texts come from the page (data-messages): no wording here.
// A classic script run again by in-app navigation: listeners are added once, on document.
(() => {
  if (window.__rosaceProfile) return;
  window.__rosaceProfile = true;

  const API = '/api/postsales/v1/account';
  const root = () => document.querySelector('[data-profile-page]');
  const text = (key) => {
    try {
      return JSON.parse(root().dataset.messages)[key] || key;
    } catch (_) {
      return key;
    }
  };
  const cookie = (name) => {
    const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
    return hit ? decodeURIComponent(hit.slice(name.length + 1)) : '';
  };
  // The XSRF cookie is `__Host-XSRF-TOKEN` over HTTPS, `XSRF-TOKEN` over plain HTTP.
  const XSRF_COOKIE = 'XSRF-TOKEN';
  const xsrfToken = () => cookie(`__Host-${XSRF_COOKIE}`) || cookie(XSRF_COOKIE);

  // --- Key filters (mirror app/src/account/rules.rs: is_name_char, is_digit_key) --------
  const ALLOWED = {
    name: /^[\p{L} ]$/u,
    digits: /^[0-9]$/,
    date: /^[0-9/.]$/,
  };
  const filterOf = (el) => el instanceof HTMLInputElement && ALLOWED[el.dataset.filter];
  document.addEventListener('keydown', (ev) => {
    const allowed = filterOf(ev.target);
    // Only printable single characters are filtered: backspace, arrows, delete, tab pass.
    if (!allowed || ev.ctrlKey || ev.metaKey || ev.altKey || ev.key.length !== 1) return;
    if (!allowed.test(ev.key)) ev.preventDefault();
  });
  // Pasted or dropped text, and input methods that bypass keydown: keep allowed characters.
  document.addEventListener('input', (ev) => {
    const allowed = filterOf(ev.target);
    if (!allowed) return;
    const kept = [...ev.target.value].filter((c) => allowed.test(c)).join('');
    if (kept !== ev.target.value) ev.target.value = kept;
  });

  // --- Messages -----------------------------------------------------------------------
  function notice(key, isError) {
    const page = root();
    const ok = page.querySelector('[data-testid="account-notice"]');
    const bad = page.querySelector('[data-testid="account-error"]');
    const [show, hide] = isError ? [bad, ok] : [ok, bad];
    hide.hidden = true;
    show.textContent = text(key);
    show.hidden = false;
  }

  function setFieldError(form, field, key) {
    const slot = form.querySelector(`[data-error-for="${field}"]`);
    const box = form.querySelector(`[data-field="${field}"]`);
    if (!slot) return;
    slot.textContent = key ? text(key) : '';
    slot.hidden = !key;
    for (const input of box ? box.querySelectorAll('input, select') : []) {
      if (key) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }

  function clearErrors(form) {
    for (const slot of form.querySelectorAll('[data-error-for]')) setFieldError(form, slot.dataset.errorFor, null);
    const general = form.querySelector('[data-form-error]');
    if (general) general.hidden = true;
  }

  function showErrors(form, r) {
    const data = r.data || {};
    for (const e of data.fieldErrors || []) setFieldError(form, e.field, e.messageKey);
    const general = form.querySelector('[data-form-error]');
    const key = data.error_description || 'errors.general_retry.notification';
    if (general) {
      general.textContent = text(key);
      general.hidden = false;
    } else {
      notice(key, true);
    }
    const first = form.querySelector('[aria-invalid="true"]');
    if (first) first.focus();
  }

  // --- Calls --------------------------------------------------------------------------
  async function call(form, method, path, body) {
    const buttons = [...form.querySelectorAll('button')];
    form.setAttribute('aria-busy', 'true');
    buttons.forEach((b) => (b.disabled = true));
    try {
      const res = await fetch(API + path, {
        method,
        credentials: 'same-origin',
        headers: {
          'Content-Type': 'application/json',
          'X-XSRF-TOKEN': xsrfToken(),
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

  const openDialog = (id) => {
    const d = document.getElementById(id);
    if (d && typeof d.showModal === 'function' && !d.open) d.showModal();
    return d;
  };

  async function saveProfile(form) {
    const f = form.elements;
    const job = f.jobId.value;
    const body = {
      firstName: f.firstName.value,
      lastName: f.lastName.value,
      gender: (form.querySelector('input[name="gender"]:checked') || {}).value || '',
      birthDate: f.birthDate.value,
      phone: f.phone.value,
      jobId: job === '' ? null : Number(job),
    };
    clearErrors(form);
    const r = await call(form, 'POST', '/profile', body);
    if (!r.ok) return showErrors(form, r);
    const m = r.data.member;
    f.firstName.value = m.firstName;
    f.lastName.value = m.lastName;
    f.birthDate.value = m.birthDate;
    f.phone.value = m.phone;
    notice(r.data.msgKey);
  }

  async function changeEmail(form) {
    const f = form.elements;
    clearErrors(form);
    const r = await call(form, 'POST', '/email', { Email: f.Email.value, ConfirmEmail: f.ConfirmEmail.value });
    if (!r.ok) return showErrors(form, r);
    form.reset();
    const pending = document.querySelector('[data-testid="pending-email"]');
    if (pending && r.data.member.pendingEmail) {
      pending.textContent = text('myprofile.email.pending').replace('{email}', r.data.member.pendingEmail);
      pending.hidden = false;
    }
    openDialog('email-dialog');
  }

  async function changePassword(form) {
    const f = form.elements;
    clearErrors(form);
    const r = await call(form, 'POST', '/password', {
      oldPassword: f.currentPassword.value,
      newPassword: f.password.value,
      confirmPassword: f.confirmPassword.value,
    });
    if (!r.ok) return showErrors(form, r);
    form.reset();
    // The session was rotated, and its XSRF token with it: the no-script fields follow.
    const token = xsrfToken();
    for (const input of document.querySelectorAll('input[name="_xsrf"]')) input.value = token;
    notice(r.data.msgKey);
    openDialog('password-dialog');
  }

  const HANDLERS = { profile: saveProfile, email: changeEmail, password: changePassword };

  document.addEventListener('submit', (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement) || !form.closest('[data-profile-page]')) return;
    if (typeof window.fetch !== 'function') return;
    const handler = HANDLERS[form.dataset.profileForm];
    const confirmId = form.dataset.confirm;
    if (!handler && !confirmId) return;
    ev.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    if (handler) return handler(form);
    // A confirmation step: the dialog instead of the server-rendered step.
    if (confirmId === 'deactivate-dialog' && !form.querySelector('input[name="reason"]:checked')) {
      setFieldError(form, 'reason', 'account.deactivate.error.reason');
      form.querySelector('input[name="reason"]').focus();
      return;
    }
    setFieldError(form, 'reason', null);
    const dialog = openDialog(confirmId);
    if (dialog) dialog.dataset.form = form.dataset.testid;
  });

  async function confirmed(dialog) {
    if (dialog.id === 'deactivate-dialog') {
      const form = document.querySelector('[data-testid="deactivate-form"]');
      const reason = form.querySelector('input[name="reason"]:checked').value;
      const r = await call(dialog, 'POST', '/deactivate', { reason });
      if (!r.ok) {
        dialog.close();
        return notice((r.data && r.data.error_description) || 'errors.general_retry.notification', true);
      }
      // Signed out: the sign-in page says so (and would answer code 6 from now on).
      window.location.assign(`/gr/authentication?info=${encodeURIComponent(r.data.msgKey)}`);
    } else if (dialog.id === 'delete-dialog') {
      const r = await call(dialog, 'DELETE', '');
      dialog.close();
      if (!r.ok) return notice((r.data && r.data.error_description) || 'errors.general_retry.notification', true);
      // STEP1 to STEP2, in place: the account is gone and the session with it.
      document.querySelector('[data-step="STEP1"]').hidden = true;
      const done = document.querySelector('[data-step="STEP2"]');
      done.hidden = false;
      done.querySelector('h2').setAttribute('tabindex', '-1');
      done.querySelector('h2').focus();
    }
  }

  document.addEventListener('click', (ev) => {
    const target = ev.target instanceof Element ? ev.target : null;
    const dialog = target && target.closest('dialog');
    if (!dialog || !dialog.closest('[data-profile-page]')) return;
    if (target.closest('[data-dialog-cancel]')) {
      ev.preventDefault();
      dialog.close();
    } else if (target.closest('[data-dialog-confirm]')) {
      ev.preventDefault();
      if (dialog.getAttribute('aria-busy') !== 'true') confirmed(dialog);
    }
  });

  // A field's message clears when that field changes, and only that one.
  const clearOwn = (ev) => {
    const input = ev.target;
    const box = input instanceof Element && input.closest('[data-field]');
    const form = input.form;
    if (!box || !form || !form.closest('[data-profile-page]')) return;
    setFieldError(form, box.dataset.field, null);
  };
  document.addEventListener('input', clearOwn);
  document.addEventListener('change', clearOwn);
})();
