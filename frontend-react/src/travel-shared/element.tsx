// The part every travel custom element shares: an open shadow root holding the widget's
// stylesheet and a React root, rendered again whenever an input (attribute or property) changes.
import { StrictMode, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

export abstract class ReactWidgetElement extends HTMLElement {
  private root: Root | null = null;
  private mountPoint: HTMLDivElement | null = null;

  /** The stylesheet of the shadow root. */
  protected abstract readonly css: string;
  /** The names of the JS properties, to pick up values set before the element was defined. */
  protected abstract readonly propertyNames: readonly string[];
  protected abstract renderWidget(): ReactNode;

  connectedCallback(): void {
    // A property set on the element before its class was defined shadows the accessor:
    // take the value and hand it to the accessor.
    for (const name of this.propertyNames) {
      if (Object.hasOwn(this, name)) {
        const value: unknown = (this as Record<string, unknown>)[name];
        delete (this as Record<string, unknown>)[name];
        (this as Record<string, unknown>)[name] = value;
      }
    }
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (!this.mountPoint) {
      const style = document.createElement('style');
      style.textContent = this.css;
      this.mountPoint = document.createElement('div');
      shadow.replaceChildren(style, this.mountPoint);
    }
    this.root ??= createRoot(this.mountPoint);
    this.update();
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

  /** Reads an attribute into the matching input; the element renders again after it. */
  protected abstract readAttribute(name: string, value: string | null): void;

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    this.readAttribute(name, value);
    this.update();
  }

  /** Renders again with the current inputs (no-op until connected). */
  protected update(): void {
    this.root?.render(<StrictMode>{this.renderWidget()}</StrictMode>);
  }
}

/** JSON text of an attribute, or `fallback` when absent or not valid JSON. */
export function parseJson(text: string | null, fallback: unknown): unknown {
  if (text === null || text.trim() === '') return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    console.warn('Ignoring an attribute that is not valid JSON', text.slice(0, 80));
    return fallback;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
