import { waitFor } from '@testing-library/dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { applyDepends, LEAVE_MS, start, UPLOAD_TIMEOUT_MS } from './enhance';

// The enhancement script against server answers: a fetch that answers HTML as the server
// would (after its redirect), the DOM of jsdom.

beforeAll(() => start());

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

function answer(html: string, url: string, type = 'text/html; charset=utf-8', status = 200): Response {
  const resp = new Response(html, { status, headers: { 'content-type': type } });
  Object.defineProperty(resp, 'url', { value: new URL(url, location.href).toString() });
  return resp;
}

function serve(...answers: (Response | (() => Promise<Response>))[]) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url: String(url), method: init.method ?? 'GET', body: init.body });
    const next = answers.shift();
    if (!next) throw new TypeError('no answer');
    return typeof next === 'function' ? next() : next;
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const REGION = (inner: string, extra = '') =>
  `<div data-enhance-region="help" ${extra}><form data-enhance method="post" action="/helpform/send" id="f">
     <input type="hidden" name="_xsrf" value="tok">
     <select id="reason" name="reason" data-enhance-refresh><option value="">-</option><option value="payment">P</option><option value="other">O</option></select>
     <textarea id="body" name="body"></textarea>
     ${inner}
     <button id="send" type="submit">Send</button>
   </form></div>`;

function mount(html: string) {
  history.replaceState(null, '', '/helpform');
  document.body.innerHTML = html;
}

function click(id: string) {
  const button = document.getElementById(id) as HTMLButtonElement;
  const form = button.form!;
  form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true, submitter: button }));
}

describe('enhance: a server form sent in place', () => {
  it('posts the form, swaps the region from the answer, marks it not busy and moves the focus', async () => {
    mount(REGION(''));
    const calls = serve(
      answer(page(REGION('<p data-enhance-focus data-enhance-announce id="done">Sent</p>')), '/helpform?evaluation=7'),
    );
    (document.getElementById('body') as HTMLTextAreaElement).value = 'Where is my invoice?';
    click('send');
    expect(document.getElementById('f')!.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(document.getElementById('done')).not.toBeNull());
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url).toMatch(/\/helpform\/send$/);
    const sent = new URLSearchParams(calls[0]!.body as URLSearchParams);
    expect(sent.get('body')).toBe('Where is my invoice?');
    expect(sent.get('_xsrf')).toBe('tok');
    expect(document.getElementById('f')!.getAttribute('aria-busy')).toBe('false');
    expect(document.activeElement).toBe(document.getElementById('done'));
    expect(location.pathname + location.search).toBe('/helpform?evaluation=7');
    await waitFor(() => expect(document.getElementById('rosace-live')?.textContent).toBe('Sent'));
  });

  it('sends a multipart form as FormData, with the button pressed', async () => {
    mount(REGION('').replace('method="post"', 'method="post" enctype="multipart/form-data"').replace('id="send"', 'id="send" name="step" value="2"'));
    const calls = serve(answer(page(REGION('<i id="ok"></i>')), '/helpform'));
    click('send');
    await waitFor(() => expect(document.getElementById('ok')).not.toBeNull());
    expect(calls[0]!.body).toBeInstanceOf(FormData);
    expect((calls[0]!.body as FormData).get('step')).toBe('2');
  });

  it('shows an answer that is another page as a page', async () => {
    vi.stubGlobal('scrollTo', () => undefined);
    mount(`<main id="main">${REGION('')}</main>`);
    serve(answer(page('<main id="main"><h1 id="centre">Messages</h1></main>'), '/my-notifications?ticket=3'));
    click('send');
    await waitFor(() => expect(document.getElementById('centre')).not.toBeNull());
    expect(location.pathname).toBe('/my-notifications');
    expect(document.querySelector('[data-enhance-region]')).toBeNull();
  });

  it('shows the answer of a new session (a password change) as a whole page, so nothing keeps the old token', async () => {
    vi.stubGlobal('scrollTo', () => undefined);
    document.cookie = 'XSRF-TOKEN=old';
    mount(`<main id="main"><a id="logout" href="/logout?t=old">out</a>${REGION('')}</main>`);
    serve(async () => {
      document.cookie = 'XSRF-TOKEN=new'; // the answer's Set-Cookie
      return answer(page(`<main id="main"><a id="logout" href="/logout?t=new">out</a>${REGION('<i id="ok"></i>')}</main>`), '/helpform');
    });
    click('send');
    await waitFor(() => expect(document.getElementById('ok')).not.toBeNull());
    expect(document.getElementById('logout')!.getAttribute('href')).toBe('/logout?t=new');
    document.cookie = 'XSRF-TOKEN=; max-age=0';
  });

  it('brings a part marked to sync outside the region up to date (the header\'s unread count)', async () => {
    const bell = (n: number) => `<a id="bell" data-enhance-sync="bell" aria-label="Unread: ${n}" href="/my-notifications">${n}</a>`;
    mount(`<header>${bell(2)}<a id="cart" href="/cart">cart</a></header>${REGION('')}`);
    serve(answer(page(`<header>${bell(1)}<a id="cart" href="/cart?x">cart</a></header>${REGION('<i id="ok"></i>')}`), '/helpform'));
    click('send');
    await waitFor(() => expect(document.getElementById('ok')).not.toBeNull());
    expect(document.getElementById('bell')!.textContent).toBe('1');
    expect(document.getElementById('bell')!.getAttribute('aria-label')).toBe('Unread: 1');
    // What is not marked stays as it was.
    expect(document.getElementById('cart')!.getAttribute('href')).toBe('/cart');
  });

  it('swaps only the region while the session stays the same', async () => {
    document.cookie = 'XSRF-TOKEN=same';
    mount(`<main id="main"><a id="logout" href="/logout?t=same">out</a>${REGION('')}</main>`);
    serve(answer(page(`<main id="main"><a id="logout" href="/logout?t=other">out</a>${REGION('<i id="ok"></i>')}</main>`), '/helpform'));
    click('send');
    await waitFor(() => expect(document.getElementById('ok')).not.toBeNull());
    expect(document.getElementById('logout')!.getAttribute('href')).toBe('/logout?t=same');
    document.cookie = 'XSRF-TOKEN=; max-age=0';
  });

  it('shows a dialog the answer has open as a modal', async () => {
    const showModal = vi.fn(function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    });
    HTMLDialogElement.prototype.showModal = showModal;
    mount(REGION(''));
    serve(answer(page(REGION('<dialog id="done" open data-enhance-modal><form method="dialog"><button>Close</button></form></dialog><dialog id="shut" data-enhance-modal></dialog>')), '/helpform?dialog=done'));
    click('send');
    await waitFor(() => expect(document.getElementById('done')).not.toBeNull());
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(showModal.mock.instances[0]).toBe(document.getElementById('done'));
  });

  it('falls back to the browser submit when the answer is not a page (a file, JSON)', async () => {
    mount(REGION(''));
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    submit.mockClear();
    serve(answer('{"ok":1}', '/helpform/send', 'application/json', 200));
    click('send');
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(document.getElementById('f')!.hasAttribute('data-enhance')).toBe(false);
  });

  it('does not send a post again after a server error or a lost connection: it says so, and keeps what was typed', async () => {
    document.documentElement.dataset.failed = 'Une erreur est survenue. Veuillez réessayer.';
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    try {
      for (const failure of [() => answer('<h1>oops</h1>', '/helpform/send', 'text/plain', 502), null]) {
        mount(REGION(''));
        submit.mockClear();
        // `null`: no answer at all (the fetch rejects, as on a dropped connection).
        const calls = failure ? serve(failure()) : serve();
        (document.getElementById('body') as HTMLTextAreaElement).value = 'Ma commande';
        click('send');
        await waitFor(() => expect(document.querySelector('[data-enhance-failure]')).not.toBeNull());
        const message = document.querySelector('[data-enhance-failure]')!;
        expect(message.textContent).toBe('Une erreur est survenue. Veuillez réessayer.');
        expect(message.getAttribute('role')).toBe('alert');
        expect(submit).not.toHaveBeenCalled();
        expect(calls).toHaveLength(1);
        expect((document.getElementById('body') as HTMLTextAreaElement).value).toBe('Ma commande');
        expect(document.getElementById('f')!.getAttribute('aria-busy')).toBe('false');
        // Sent again by the member: the message goes while it is on its way.
        serve(answer(page(REGION('<p id="done">Sent</p>')), '/helpform'));
        click('send');
        expect(document.querySelector('[data-enhance-failure]')).toBeNull();
        await waitFor(() => expect(document.getElementById('done')).not.toBeNull());
      }
    } finally {
      submit.mockRestore();
      delete document.documentElement.dataset.failed;
    }
  });

  it('asks a form marked to confirm first, and sends nothing when the member says no', async () => {
    mount(REGION('').replace('id="f"', 'id="f" data-enhance-confirm="Delete?"'));
    const asked: string[] = [];
    vi.stubGlobal('confirm', (q: string) => (asked.push(q), false));
    const calls = serve(answer(page(REGION('<i id="ok"></i>')), '/helpform'));
    click('send');
    expect(asked).toEqual(['Delete?']);
    expect(calls).toHaveLength(0);
    vi.stubGlobal('confirm', () => true);
    click('send');
    await waitFor(() => expect(document.getElementById('ok')).not.toBeNull());
  });

  it('gives a form with files a minute before it gives up, another form 15 s: sent normally where the page has no message, else said', async () => {
    vi.useFakeTimers();
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    try {
      for (const [multipart, limit] of [[true, UPLOAD_TIMEOUT_MS], [false, 15_000]] as const) {
        const signals: AbortSignal[] = [];
        // A server that never answers; the fetch gives up when its signal is aborted.
        vi.stubGlobal('fetch', vi.fn((_url: string, init: RequestInit) => new Promise((_, reject) => {
          signals.push(init.signal!);
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        })));
        submit.mockClear();
        const html = REGION('');
        mount(multipart ? html.replace('method="post"', 'method="post" enctype="multipart/form-data"') : html);
        click('send');
        await vi.advanceTimersByTimeAsync(limit - 1);
        expect(signals[0]!.aborted).toBe(false);
        expect(submit).not.toHaveBeenCalled();
        await vi.advanceTimersByTimeAsync(1);
        expect(signals[0]!.aborted).toBe(true);
        expect(submit).toHaveBeenCalledTimes(1);
      }
      // The shop's pages carry the message: a post that timed out is not sent again.
      document.documentElement.dataset.failed = 'Réessayez.';
      vi.stubGlobal('fetch', vi.fn((_url: string, init: RequestInit) => new Promise((_, reject) => {
        init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      })));
      submit.mockClear();
      mount(REGION(''));
      click('send');
      await vi.advanceTimersByTimeAsync(15_000);
      expect(submit).not.toHaveBeenCalled();
      expect(document.querySelector('[data-enhance-failure]')!.textContent).toBe('Réessayez.');
    } finally {
      delete document.documentElement.dataset.failed;
      submit.mockRestore();
      vi.useRealTimers();
    }
  });

  it('lets a part marked to leave fade out before its form is sent, once however often it is clicked', async () => {
    vi.useFakeTimers();
    try {
      document.body.innerHTML = `<div class="modal-backdrop" data-leave id="popin"><form method="post" action="/forms/popin" id="p">
        <button id="close" type="submit" name="action" value="close">Later</button></form></div>`;
      const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
      submit.mockClear();
      click('close');
      click('close');
      expect(document.getElementById('popin')!.classList.contains('is-leaving')).toBe(true);
      expect(submit).not.toHaveBeenCalled();
      vi.advanceTimersByTime(LEAVE_MS);
      expect(submit).toHaveBeenCalledTimes(1);
      // The button pressed goes with the post, as the browser's own submit would send it.
      const form = document.getElementById('p') as HTMLFormElement;
      expect(new FormData(form).get('action')).toBe('close');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not post twice while the first post is on its way', async () => {
    mount(REGION(''));
    let release: (r: Response) => void = () => undefined;
    const calls = serve(() => new Promise<Response>((r) => (release = r)));
    click('send');
    click('send');
    expect(calls).toHaveLength(1);
    release(answer(page(REGION('<i id="ok"></i>')), '/helpform'));
    await waitFor(() => expect(document.getElementById('ok')).not.toBeNull());
  });

  it('asks for the form again when a refresh control changes, and keeps what was typed meanwhile', async () => {
    mount(REGION(''));
    let release: (r: Response) => void = () => undefined;
    const calls = serve(() => new Promise<Response>((r) => (release = r)));
    const reason = document.getElementById('reason') as HTMLSelectElement;
    reason.value = 'payment';
    reason.dispatchEvent(new Event('change', { bubbles: true }));
    expect(calls).toHaveLength(1);
    const asked = new URL(calls[0]!.url);
    expect(asked.pathname).toBe('/helpform');
    expect(asked.searchParams.get('_changed')).toBe('reason');
    expect(asked.searchParams.get('reason')).toBe('payment');
    expect(asked.searchParams.has('_xsrf')).toBe(false);
    expect(asked.searchParams.has('body')).toBe(false);
    // Typed while the answer is on its way: kept in the new form.
    const body = document.getElementById('body') as HTMLTextAreaElement;
    body.value = 'typed meanwhile';
    body.dispatchEvent(new Event('input', { bubbles: true }));
    const fresh = REGION('<i id="fresh"></i>').replace('<option value="payment">', '<option value="payment" selected>');
    release(answer(page(fresh), asked.toString()));
    await waitFor(() => expect(document.getElementById('fresh')).not.toBeNull());
    expect((document.getElementById('body') as HTMLTextAreaElement).value).toBe('typed meanwhile');
    expect((document.getElementById('reason') as HTMLSelectElement).value).toBe('payment');
    expect(document.activeElement).toBe(document.getElementById('reason'));
  });

  it('copies the typed text into a field the answer marks kept', async () => {
    mount(REGION(''));
    (document.getElementById('body') as HTMLTextAreaElement).value = 'my question';
    serve(answer(page(REGION('<i id="ok"></i>').replace('<textarea id="body"', '<textarea data-enhance-keep id="body"')), '/helpform?error=x'));
    click('send');
    await waitFor(() => expect(document.getElementById('ok')).not.toBeNull());
    expect((document.getElementById('body') as HTMLTextAreaElement).value).toBe('my question');
  });

  it('keeps every field of a form the answer marks kept, boxes included, not the token', async () => {
    const form = (attrs: string) =>
      `<div data-enhance-region="deal"><form data-enhance ${attrs} method="post" action="/r" id="g">
        <input type="hidden" name="_xsrf" value="new-token"><input name="city" id="city">
        <input type="checkbox" name="vouchers" value="A"><input type="checkbox" name="vouchers" value="B">
        <button id="go" type="submit">Go</button></form></div>`;
    history.replaceState(null, '', '/rosedeals/refund');
    document.body.innerHTML = form('');
    (document.getElementById('city') as HTMLInputElement).value = 'Paris';
    (document.querySelector('input[value="B"]') as HTMLInputElement).checked = true;
    (document.querySelector('input[name="_xsrf"]') as HTMLInputElement).value = 'old-token';
    serve(answer(page(form('data-enhance-keep').replace('</form>', '<p id="err">No</p></form>')), '/rosedeals/refund?error=x'));
    click('go');
    await waitFor(() => expect(document.getElementById('err')).not.toBeNull());
    expect((document.getElementById('city') as HTMLInputElement).value).toBe('Paris');
    expect((document.querySelector('input[value="B"]') as HTMLInputElement).checked).toBe(true);
    expect((document.querySelector('input[value="A"]') as HTMLInputElement).checked).toBe(false);
    expect((document.querySelector('input[name="_xsrf"]') as HTMLInputElement).value).toBe('new-token');
  });

  it('sends a GET form on every change when it is marked auto', async () => {
    history.replaceState(null, '', '/voyages/p/1/2');
    document.body.innerHTML = `<form data-enhance data-enhance-auto data-enhance-region="configurator" method="get" action="/voyages/p/1/2" data-state-url="/voyages/p/1/2?a=1">
      <input type="radio" name="pkg" value="1" id="p1"><input type="radio" name="pkg" value="2" id="p2"></form>`;
    const calls = serve(
      answer(
        page(`<form data-enhance data-enhance-auto data-enhance-region="configurator" method="get" data-state-url="/voyages/p/1/2?pkg=2"><input type="radio" name="pkg" value="2" id="p2" checked><b id="new"></b></form>`),
        '/voyages/p/1/2?pkg=2',
      ),
    );
    const p2 = document.getElementById('p2') as HTMLInputElement;
    p2.checked = true;
    p2.focus();
    p2.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => expect(document.getElementById('new')).not.toBeNull());
    expect(new URL(calls[0]!.url).searchParams.get('pkg')).toBe('2');
    expect(calls[0]!.method).toBe('GET');
    expect(location.search).toBe('?pkg=2');
    expect(document.activeElement).toBe(document.getElementById('p2'));
  });

  it('sends a typed date when the member leaves the field, a picked one at once', async () => {
    history.replaceState(null, '', '/voyages/p/1/2');
    const form = (mark: string) => `<form data-enhance data-enhance-auto data-enhance-region="configurator" method="get" action="/voyages/p/1/2">
      <input type="date" name="bd0" id="bd"><input type="text" name="x" id="next">${mark}</form>`;
    document.body.innerHTML = form('');
    const calls = serve(answer(page(form('<b id="typed"></b>')), '/voyages/p/1/2?bd0=1985-08-15'));
    const date = document.getElementById('bd') as HTMLInputElement;
    date.focus();
    // Each key of the year makes a valid date the browser reports as a change.
    for (const value of ['0001-08-15', '0019-08-15', '0198-08-15', '1985-08-15']) {
      date.dispatchEvent(new KeyboardEvent('keydown', { key: value[3], bubbles: true }));
      date.value = value;
      date.dispatchEvent(new Event('change', { bubbles: true }));
    }
    expect(calls).toHaveLength(0);
    (document.getElementById('next') as HTMLInputElement).focus();
    await waitFor(() => expect(document.getElementById('typed')).not.toBeNull());
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url).searchParams.get('bd0')).toBe('1985-08-15');

    // From the browser's calendar: no key, sent at once.
    const more = serve(answer(page(form('<b id="picked"></b>')), '/voyages/p/1/2?bd0=1990-01-02'));
    const again = document.getElementById('bd') as HTMLInputElement;
    again.value = '1990-01-02';
    again.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => expect(document.getElementById('picked')).not.toBeNull());
    expect(new URL(more[0]!.url).searchParams.get('bd0')).toBe('1990-01-02');
  });
});

describe('enhance: a search field above the list it filters', () => {
  it('sends the form once typing pauses, swaps the list it names and leaves the field alone', async () => {
    history.replaceState(null, '', '/brandsplace');
    document.body.innerHTML = `<div data-enhance-region="brands"><form data-enhance data-enhance-target="brands-list" method="get" action="/brandsplace">
      <input id="q" name="q" data-enhance-input></form><div data-enhance-region="brands-list"><p id="old">all</p></div></div>`;
    const calls = serve(answer(page(`<div data-enhance-region="brands-list"><p id="new" data-enhance-announce>2 brands</p></div>`), '/brandsplace?q=le'));
    const q = document.getElementById('q') as HTMLInputElement;
    q.focus();
    for (const v of ['l', 'le']) {
      q.value = v;
      q.dispatchEvent(new Event('input', { bubbles: true }));
    }
    expect(calls).toHaveLength(0);
    await waitFor(() => expect(document.getElementById('new')).not.toBeNull());
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url).searchParams.get('q')).toBe('le');
    expect(document.getElementById('q')).toBe(q);
    expect(document.activeElement).toBe(q);
    expect(location.search).toBe('?q=le');
  });
});

describe('enhance: field errors', () => {
  it('clears the error of the field the member changes, and only that one', () => {
    document.body.innerHTML = `<div data-enhance-region="w"><form data-enhance method="post" action="/w">
      <input name="iban" id="iban" aria-invalid="true"><span data-error-for="iban" id="e1">bad</span>
      <input name="bic" id="bic" aria-invalid="true"><span data-error-for="bic" id="e2">bad</span></form></div>`;
    const iban = document.getElementById('iban') as HTMLInputElement;
    iban.value = 'FR76';
    iban.dispatchEvent(new Event('input', { bubbles: true }));
    expect(iban.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById('e1')!.hidden).toBe(true);
    expect(document.getElementById('bic')!.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('e2')!.hidden).toBe(false);
  });
});

describe('enhance: a select that depends on another control', () => {
  const FORM = `<form data-enhance method="post" action="/x"><select name="reason" id="r"><option value="">-</option><option value="size">S</option><option value="gift">G</option></select>
    <p data-field id="subfield"><select name="sub" id="s" data-depends-on="reason"><option value="">-</option>
      <optgroup data-when="size"><option value="too_big">B</option></optgroup>
      <optgroup data-when="broken"><option value="cracked">C</option></optgroup></select></p></form>`;

  it('offers only the groups of the chosen value, clears a choice no longer offered, hides an empty field', () => {
    document.body.innerHTML = FORM;
    const reason = document.getElementById('r') as HTMLSelectElement;
    const sub = document.getElementById('s') as HTMLSelectElement;
    applyDepends(document);
    expect(document.getElementById('subfield')!.hidden).toBe(true);
    reason.value = 'size';
    reason.dispatchEvent(new Event('change', { bubbles: true }));
    expect(document.getElementById('subfield')!.hidden).toBe(false);
    const groups = [...sub.querySelectorAll('optgroup')];
    expect(groups.map((g) => g.disabled)).toEqual([false, true]);
    sub.value = 'too_big';
    reason.value = 'gift';
    reason.dispatchEvent(new Event('change', { bubbles: true }));
    expect(sub.value).toBe('');
    expect(document.getElementById('subfield')!.hidden).toBe(true);
  });
});
