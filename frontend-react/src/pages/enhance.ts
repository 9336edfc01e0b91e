// The one enhancement of server forms (docs/frontend.md). A form is server HTML that works
// without scripts: it posts, the server answers with a redirect to a page that shows the
// outcome (a notice, or the form again with its field errors and what was typed). With
// this script a form marked `data-enhance` is sent with fetch instead; the redirect is
// followed; the region the form belongs to (`data-enhance-region="name"`, the closest
// around it) is taken from the answer and swapped in; the focus goes back where it was,
// or to what the answer marks `data-enhance-focus` (a form may name another region with
// `data-enhance-target`: a search field above a list, which stays as it is while typing); the text marked `data-enhance-announce`
// is read out. An answer that is another page is shown as in-app navigation would. Anything
// unusual (no answer, not HTML, a server error, no such region) falls back to a normal
// submit or page load, which always works. It repeats no rule: every outcome is the
// server's.
//
// Some changes send without a click:
// - `data-enhance-auto` on the form: any change sends the form (a GET form: the travel
//   configurator shows the price of each choice);
// - `data-enhance-input` on a field: typing sends the form once the member pauses (the
//   brands place's search);
// - `data-enhance-refresh` on a control: its change asks the server for the form again
//   (GET on the form's `data-enhance-refresh` address with the form's values and
//   `_changed=<the control's name>`), which applies the rule of that change (the help
//   form: a new reason clears the sub-reason, the order and the message). A refresh does
//   not carry free text (a textarea: long, and not for an address); where the rule keeps
//   it, the answer marks the field `data-enhance-keep` and the typed text is copied in.
// A select may depend on another control of its form (`data-depends-on="<its name>"`): only
// its option groups whose `data-when` is that control's value are offered (all of them
// without scripts), a choice no longer offered is cleared, and with nothing to offer its
// field (the closest `[data-field]`, else its parent) hides. No request: the groups are
// the server's.
// A form marked `data-enhance-confirm="<question>"` asks the question first (a deletion);
// without scripts it is sent at once. A form inside a `[data-leave]` part (a popin, the
// data-partner banner) lets that part fade out (`.is-leaving`, 300 ms in style/main.css;
// at once for a member who asks for reduced motion) before it is sent.
// A field's error (its `aria-invalid` and `[data-error-for="<name>"]` message) clears as
// the member changes that field: it was about the value that is gone. A `<dialog
// data-enhance-modal>` the page or the answer has open is shown modal (closed by its
// `<form method="dialog">`, which works without scripts too).
// A part of the page outside the region that an outcome may change (the header's unread
// count after "mark as read") is marked `data-enhance-sync="<name>"`: it takes the answer's.
// An answer from a new session (the XSRF cookie changed: a password change rotates the
// session) is shown as a whole page: every token and link on the page is the new one's.
// What the member types while an answer is on its way is kept: it is written into the
// new region (and a refresh control changed meanwhile asks again).
import { ENHANCED, type EnhancedDetail } from '../lib/events';
import { fetchHtml, NotHtml } from '../lib/http';
import { onPage } from '../lib/lifecycle';
import { announce } from '../lib/live';
import { readXsrfToken } from '../lib/xsrf';
import { hydrateIslands, reviveScripts, showPage, watchWidgets } from './navigation';

/** A form with files has a minute to be sent, others the 15 s of `fetchHtml`: after its
 * time an enhanced form is sent again normally, and a photo on a slow connection would be
 * cut off and uploaded twice. */
export const UPLOAD_TIMEOUT_MS = 60_000;

const FORM = 'form[data-enhance]';
const REGION = 'data-enhance-region';
const SYNC = 'data-enhance-sync';

type ControlKey = { id: string } | { name: string; value: string | null };
type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

interface Flight {
  region: string;
  /** A POST is never sent twice by a second click while it is on its way. */
  post: boolean;
  controller: AbortController;
  /** Controls changed since the request left, by key. */
  touched: Map<string, Field>;
}

let flight: Flight | null = null;

/** The element whose `attr` is `value` (no selector escaping: values come from the page). */
function byAttr(root: ParentNode, attr: string, value: string): HTMLElement | null {
  for (const el of root.querySelectorAll<HTMLElement>(`[${attr}]`)) if (el.getAttribute(attr) === value) return el;
  return null;
}

function regionOf(el: Element): HTMLElement | null {
  const form = el.closest<HTMLFormElement>('form');
  const target = form?.dataset.enhanceTarget;
  if (target) return byAttr(document, REGION, target);
  return el.closest<HTMLElement>(`[${REGION}]`);
}

/** How long a `[data-leave]` part fades before its form is sent (the CSS animation's). */
export const LEAVE_MS = 300;

/** Typing pauses this long before a `data-enhance-input` field sends its form. */
export const TYPING_PAUSE_MS = 250;
let typing: ReturnType<typeof setTimeout> | undefined;

function isField(el: unknown): el is Field {
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;
}

/** What identifies a control across two renders of a region. */
export function controlKey(el: Element | null): ControlKey | null {
  if (!(el instanceof HTMLElement)) return null;
  if (el.id) return { id: el.id };
  const name = el.getAttribute('name');
  if (name) return { name, value: isChoice(el) || el instanceof HTMLButtonElement ? (el as HTMLInputElement).value : null };
  return null;
}

function isChoice(el: Element): boolean {
  return el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox');
}

function keyText(key: ControlKey): string {
  return 'id' in key ? `#${key.id}` : `${key.name}=${key.value ?? ''}`;
}

export function findControl(root: ParentNode, key: ControlKey | null): HTMLElement | null {
  if (!key) return null;
  if ('id' in key) return byAttr(root, 'id', key.id);
  for (const el of root.querySelectorAll<HTMLElement>('[name]')) {
    if (el.getAttribute('name') !== key.name) continue;
    if (key.value === null || (el as HTMLInputElement).value === key.value) return el;
  }
  return null;
}

/** The form's values as the browser would send them (files only in a multipart POST). */
export function formBody(form: HTMLFormElement, submitter: HTMLElement | null): FormData {
  const data = new FormData(form);
  if (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) {
    if (submitter.name) data.append(submitter.name, submitter.value);
  }
  return data;
}

function asQuery(data: FormData, skip: string[] = []): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of data) {
    if (typeof value === 'string' && !skip.includes(name)) params.append(name, value);
  }
  return params;
}

/** Copies what the member changed meanwhile into the new region; true when one of those
 * changes asks the server again. */
function keepTouched(region: HTMLElement, touched: Map<string, Field>): Field | null {
  let again: Field | null = null;
  for (const old of touched.values()) {
    const next = findControl(region, controlKey(old));
    if (!isField(next) || next.disabled) continue;
    if (isChoice(old) && next instanceof HTMLInputElement) next.checked = (old as HTMLInputElement).checked;
    else if (next instanceof HTMLSelectElement && ![...next.options].some((o) => o.value === old.value)) continue;
    else if (!(next instanceof HTMLInputElement && next.type === 'file')) next.value = old.value;
    if (next.hasAttribute('data-enhance-refresh')) again = next;
  }
  return again;
}

/** Copies the member's values into the fields the answer marks `data-enhance-keep` (a
 * form so marked: all its fields). A file cannot be set by a script: it is chosen again. */
function keepMarked(current: HTMLElement, next: HTMLElement): void {
  for (const marked of next.querySelectorAll('[data-enhance-keep]')) {
    const fields = marked instanceof HTMLFormElement ? [...marked.elements] : [marked];
    for (const field of fields) {
      if (!isField(field) || (field instanceof HTMLInputElement && (field.type === 'file' || field.type === 'hidden'))) continue;
      const old = findControl(current, controlKey(field));
      if (!isField(old)) continue;
      if (isChoice(field)) (field as HTMLInputElement).checked = (old as HTMLInputElement).checked;
      else field.value = old.value;
    }
  }
}

function swapRegion(current: HTMLElement, next: HTMLElement, url: string, focus: ControlKey | null): HTMLElement {
  const name = current.getAttribute(REGION) ?? '';
  keepMarked(current, next);
  current.replaceWith(document.adoptNode(next));
  reviveScripts(next);
  for (const form of next.querySelectorAll(FORM)) form.setAttribute('aria-busy', 'false');
  history.replaceState(history.state, '', next.dataset.stateUrl ?? url);
  const target = next.querySelector<HTMLElement>('[data-enhance-focus]') ?? findControl(next, focus);
  if (target && !(target as HTMLInputElement).disabled) {
    if (target.matches('[data-enhance-focus]') && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: !target.matches('[data-enhance-focus]') });
  }
  const said = next.querySelector('[data-enhance-announce]');
  if (said) announce(said.textContent ?? '');
  watchWidgets(next);
  if (next.querySelector('leptos-island')) void hydrateIslands(next);
  applyDepends(next);
  openModals(next);
  const detail: EnhancedDetail = { region: name, url };
  next.dispatchEvent(new CustomEvent(ENHANCED, { detail, bubbles: true }));
  return next;
}

/** Each `[data-enhance-sync]` part of the page takes the answer's part of that name (none in
 * the answer: left as it is). */
export function syncParts(answer: ParentNode, root: Document = document): void {
  for (const here of [...root.querySelectorAll<HTMLElement>(`[${SYNC}]`)]) {
    const there = byAttr(answer, SYNC, here.getAttribute(SYNC) ?? '');
    if (there && !here.isEqualNode(there)) here.replaceWith(root.adoptNode(there));
  }
}

/** Shows the open `dialog[data-enhance-modal]` under `root` as modal dialogs. */
export function openModals(root: ParentNode): void {
  for (const dialog of root.querySelectorAll<HTMLDialogElement>('dialog[data-enhance-modal][open]')) {
    if (typeof dialog.showModal !== 'function') continue;
    dialog.open = false;
    dialog.showModal();
  }
}

function clearOwnError(field: Field): void {
  if (field.getAttribute('aria-invalid') !== 'true') return;
  field.removeAttribute('aria-invalid');
  // The message is the field's own: in its box (`data-field`), or named after it.
  const box = field.closest('[data-field]');
  const own = box?.querySelector<HTMLElement>('[data-error-for]');
  if (own) own.hidden = true;
  for (const slot of field.form?.querySelectorAll<HTMLElement>('[data-error-for]') ?? []) {
    if (slot.dataset.errorFor === field.name) slot.hidden = true;
  }
}

/** Offers the option groups of each dependent select under `root` that its control allows. */
export function applyDepends(root: ParentNode): void {
  for (const select of root.querySelectorAll<HTMLSelectElement>('select[data-depends-on]')) {
    const control = select.form?.elements.namedItem(select.dataset.dependsOn ?? '');
    const value = isField(control) ? control.value : null;
    let any = false;
    for (const group of select.querySelectorAll<HTMLOptGroupElement>('optgroup[data-when]')) {
      const offered = group.dataset.when === value;
      group.hidden = !offered;
      group.disabled = !offered;
      any ||= offered;
    }
    if (select.selectedOptions[0]?.parentElement instanceof HTMLOptGroupElement && select.selectedOptions[0].parentElement.disabled) {
      select.value = '';
    }
    const field = select.closest<HTMLElement>('[data-field]') ?? select.parentElement;
    if (field) field.hidden = !any;
  }
}

/** The browser's own submit, for anything unusual: it always works. */
function submitNormally(form: HTMLFormElement, submitter: HTMLElement | null): void {
  if (submitter && (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) && submitter.name) {
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = submitter.name;
    field.value = submitter.value;
    form.appendChild(field);
  }
  form.removeAttribute('data-enhance');
  HTMLFormElement.prototype.submit.call(form);
}

/**
 * Sends a request for a region and shows its answer. `fallback` is what a browser without
 * this script would have done.
 */
async function send(
  form: HTMLFormElement,
  request: { url: string; method: 'GET' | 'POST'; body?: BodyInit; timeoutMs?: number },
  focus: ControlKey | null,
  fallback: () => void,
): Promise<void> {
  const region = regionOf(form);
  if (!region) return fallback();
  const name = region.getAttribute(REGION) ?? '';
  flight?.controller.abort();
  const mine: Flight = { region: name, post: request.method === 'POST', controller: new AbortController(), touched: new Map() };
  flight = mine;
  form.setAttribute('aria-busy', 'true');
  const session = readXsrfToken();
  try {
    const answer = await fetchHtml(request.url, {
      method: request.method,
      body: request.body,
      signal: mine.controller.signal,
      timeoutMs: request.timeoutMs,
    });
    if (flight !== mine) return;
    const next = byAttr(answer.doc, REGION, name);
    const here = byAttr(document, REGION, name);
    const samePage = new URL(answer.url).pathname === location.pathname;
    if (!samePage || !next || !here || readXsrfToken() !== session) {
      // The outcome is another page (a ticket sent shows the message centre), or the same
      // page for a new session.
      flight = null;
      showPage(answer.doc, answer.url, true); // its modals open with the page (onPage)
      return;
    }
    flight = null;
    const swapped = swapRegion(here, next, answer.url, focus);
    syncParts(answer.doc);
    const again = keepTouched(swapped, mine.touched);
    if (again) refresh(again);
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError' && flight !== mine) return;
    flight = null;
    // A post that timed out, lost its connection or met a server error may have reached
    // the server: sent again by the browser it could be done twice (a cart add, a
    // payment). The member is told, in their language, and decides; what they typed stays.
    const failed = document.documentElement.dataset.failed;
    const unanswered = !(e instanceof NotHtml) || e.status >= 500;
    if (request.method === 'POST' && failed && unanswered) {
      showFailure(form, failed);
      return;
    }
    fallback();
  } finally {
    if (flight === null || flight === mine) form.setAttribute('aria-busy', 'false');
  }
}

const FAILURE = 'data-enhance-failure';

/** The general retry message at the top of `form`, read out (an alert). */
function showFailure(form: HTMLFormElement, text: string): void {
  let message = form.querySelector<HTMLElement>(`[${FAILURE}]`);
  if (!message) {
    message = document.createElement('p');
    message.setAttribute(FAILURE, '');
    message.setAttribute('role', 'alert');
    message.className = 'enhance-failure';
    form.prepend(message);
  }
  message.textContent = text;
}

function submit(form: HTMLFormElement, submitter: HTMLElement | null): void {
  if (flight?.post && flight.region === regionOf(form)?.getAttribute(REGION)) return;
  form.querySelector(`[${FAILURE}]`)?.remove();
  const method = (submitter?.getAttribute('formmethod') ?? form.getAttribute('method') ?? 'get').toLowerCase();
  const action = submitter?.getAttribute('formaction') ?? form.getAttribute('action') ?? location.pathname;
  const url = new URL(action, location.href);
  const data = formBody(form, submitter);
  const focus = controlKey(submitter ?? document.activeElement);
  if (method === 'post') {
    const multipart = form.enctype === 'multipart/form-data';
    const request = {
      url: url.toString(),
      method: 'POST' as const,
      body: multipart ? data : asQuery(data),
      timeoutMs: multipart ? UPLOAD_TIMEOUT_MS : undefined,
    };
    void send(form, request, focus, () => submitNormally(form, submitter));
  } else {
    url.search = asQuery(data).toString();
    void send(form, { url: url.toString(), method: 'GET' }, focus, () => location.assign(url.toString()));
  }
}

/** Asks the server for the form again after a change of `control`. */
function refresh(control: Field): void {
  const form = control.form;
  if (!form || !form.matches(FORM)) return;
  const url = new URL(form.dataset.enhanceRefresh ?? location.pathname, location.href);
  const texts = [...form.elements].filter((el) => el instanceof HTMLTextAreaElement).map((el) => (el as HTMLTextAreaElement).name);
  const params = asQuery(new FormData(form), ['_xsrf', ...texts]);
  params.set('_changed', control.name);
  url.search = params.toString();
  void send(form, { url: url.toString(), method: 'GET' }, controlKey(control), () => location.assign(url.toString()));
}

function onChange(ev: Event): void {
  const target = ev.target;
  if (!isField(target) || !target.form || !target.form.matches(FORM)) return;
  const form = target.form;
  // While an answer is on its way, what the member changes is kept for the new region.
  clearOwnError(target);
  const key = controlKey(target);
  if (flight && key && regionOf(form)?.getAttribute(REGION) === flight.region) flight.touched.set(keyText(key), target);
  if (ev.type === 'input' && target.hasAttribute('data-enhance-input')) {
    clearTimeout(typing);
    typing = setTimeout(() => submit(form, null), TYPING_PAUSE_MS);
    return;
  }
  if (ev.type !== 'change') return;
  if (form.querySelector(`select[data-depends-on="${target.name}"]`)) applyDepends(form);
  if (target instanceof HTMLInputElement && target.type === 'date') {
    // A date field sends once it holds a whole date (or is emptied). One being typed holds
    // a "whole" date at each key (year 0001, 0019, 0198, 1985): it is sent when the member
    // leaves it, not mid-typing (a new form under the cursor garbled the date). A date
    // picked in the browser's calendar comes with no key and is sent at once.
    if (target.validity.badInput) return;
    if (typedDates.has(target)) return;
    // Already sent when the member left it (browsers differ on when `change` comes).
    if (sentDates.get(target) === target.value) return;
  }
  sendChange(form, target);
}

/** Sends what a change of `target` asks: its refresh, or the whole form of an auto form. */
function sendChange(form: HTMLFormElement, target: Field): void {
  if (target.hasAttribute('data-enhance-refresh')) refresh(target);
  else if (form.hasAttribute('data-enhance-auto')) submit(form, null);
}

/** Date fields the member is typing into, with the value they held before; what was sent. */
const typedDates = new WeakMap<HTMLInputElement, string>();
const sentDates = new WeakMap<HTMLInputElement, string>();

function onDateKey(ev: KeyboardEvent): void {
  const target = ev.target;
  if (!(target instanceof HTMLInputElement) || target.type !== 'date' || !target.form?.matches(FORM)) return;
  // Enter sends the form anyway (its first button); Tab leaves the field (focusout).
  if (ev.key === 'Enter' || ev.key === 'Tab') return;
  if (!typedDates.has(target)) typedDates.set(target, target.value);
}

function onDateLeft(ev: FocusEvent): void {
  const target = ev.target;
  if (!(target instanceof HTMLInputElement) || !typedDates.has(target)) return;
  const before = typedDates.get(target);
  typedDates.delete(target);
  if (before === target.value || target.validity.badInput || !target.form) return;
  sentDates.set(target, target.value);
  sendChange(target.form, target);
}

export function start(): void {
  // Buttons only a browser without this script needs hide (style/main.css); a data
  // attribute, which in-app navigation keeps (it swaps `class`).
  document.documentElement.dataset.enhance = 'on';
  document.addEventListener('submit', (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement)) return;
    const question = form.dataset.enhanceConfirm;
    if (question && !window.confirm(question)) {
      ev.preventDefault();
      return;
    }
    const submitter = (ev as SubmitEvent).submitter;
    const leaving = form.closest<HTMLElement>('[data-leave]');
    if (leaving) {
      ev.preventDefault();
      if (leaving.classList.contains('is-leaving')) return; // a second click while it fades
      leaving.classList.add('is-leaving');
      const go = () => (form.matches(FORM) && regionOf(form) ? submit(form, submitter) : submitNormally(form, submitter));
      if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) go();
      else setTimeout(go, LEAVE_MS);
      return;
    }
    if (!form.matches(FORM) || !regionOf(form)) return;
    ev.preventDefault();
    submit(form, submitter);
  });
  document.addEventListener('change', onChange);
  document.addEventListener('input', onChange);
  document.addEventListener('keydown', onDateKey);
  document.addEventListener('focusout', onDateLeft);
  onPage(() => {
    applyDepends(document);
    openModals(document);
  });
}
