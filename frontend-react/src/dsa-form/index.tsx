// <rosace-dsa-form site-id="1" locale="fr-fr" sale-id="…" product-id="…">
// The report-illegal-content form as a custom element. React renders into an
// open shadow root, so the host page's light DOM (and its hydration) is untouched.
// Theme: --brand-primary and --brand-on-primary, inherited from the page.
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import css from './dsa-form.css?inline';
import { DsaForm } from './DsaForm';
import { FALLBACK_LOCALE } from './api';

export const TAG_NAME = 'rosace-dsa-form';

function optionalNumber(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export class RosaceDsaFormElement extends HTMLElement {
  static observedAttributes = ['site-id', 'locale', 'sale-id', 'product-id'];

  private root: Root | null = null;
  private mountPoint: HTMLDivElement | null = null;

  connectedCallback(): void {
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (!this.mountPoint) {
      const style = document.createElement('style');
      style.textContent = css;
      this.mountPoint = document.createElement('div');
      this.mountPoint.className = 'dsa-host';
      shadow.replaceChildren(style, this.mountPoint);
    }
    this.root ??= createRoot(this.mountPoint);
    this.renderForm();
  }

  disconnectedCallback(): void {
    // Deferred: a node that is only moved is reconnected before this runs.
    queueMicrotask(() => {
      if (!this.isConnected && this.root) {
        this.root.unmount();
        this.root = null;
      }
    });
  }

  attributeChangedCallback(): void {
    if (this.root) this.renderForm();
  }

  private renderForm(): void {
    this.root?.render(
      <StrictMode>
        <DsaForm
          siteId={optionalNumber(this.getAttribute('site-id')) ?? 0}
          locale={this.getAttribute('locale')?.trim() || FALLBACK_LOCALE}
          saleId={optionalNumber(this.getAttribute('sale-id'))}
          productId={optionalNumber(this.getAttribute('product-id'))}
        />
      </StrictMode>,
    );
  }
}

if (!customElements.get(TAG_NAME)) {
  customElements.define(TAG_NAME, RosaceDsaFormElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'rosace-dsa-form': RosaceDsaFormElement;
  }
}
