// The printable voucher pages (server/src/rest/print.rs): the button prints, and a page
// marked `data-print-on-load` (the cart's print link) prints once it is open.
export function start(doc: Document = document, win: Window = window): void {
  doc.getElementById('print')?.addEventListener('click', () => win.print());
  if (doc.body.hasAttribute('data-print-on-load')) {
    if (doc.readyState === 'complete') win.print();
    else win.addEventListener('load', () => win.print(), { once: true });
  }
}

start();
