// xterm.js writes its theme and cell sizes into <style> elements and truecolor cells into style="" attributes. Under
// the dashboard's CSP (style-src 'self', no 'unsafe-inline') the browser applies neither and reports a violation for
// each. Both become CSSOM writes here, which CSP does not govern: a <style> that xterm creates is a stand-in element
// whose text goes to a constructed stylesheet adopted by the document, and `setAttribute('style', …)` sets
// `style.cssText`. Installed once, when the terminal's chunk loads; nothing else in the dashboard makes <style>
// elements (they would not work under the CSP anyway).

const TAG = 'vigil-css-sheet';

/** A <style> stand-in: not a style element, so CSP has nothing to block; its text is a constructed sheet. */
class SheetElement extends HTMLElement {
  readonly sheet = new CSSStyleSheet();
  text = '';

  connectedCallback(): void {
    const doc = this.ownerDocument;
    if (!doc.adoptedStyleSheets.includes(this.sheet)) doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, this.sheet];
  }

  disconnectedCallback(): void {
    const doc = this.ownerDocument;
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== this.sheet);
  }
}

// An accessor on the prototype: xterm sets `textContent`, and a child text node would render the CSS as text.
Object.defineProperty(SheetElement.prototype, 'textContent', {
  get(this: SheetElement) { return this.text; },
  set(this: SheetElement, value: string | null) {
    this.text = value ?? '';
    this.sheet.replaceSync(this.text);
  },
});

let installed = false;

/** Makes xterm's inline styles work under the page's CSP; safe to call more than once. */
export function installCspSafeStyles(doc: Document = document): void {
  if (installed) return;
  installed = true;
  if (!customElements.get(TAG)) customElements.define(TAG, SheetElement);
  const createElement = doc.createElement.bind(doc) as (tag: string, options?: ElementCreationOptions) => HTMLElement;
  doc.createElement = ((tag: string, options?: ElementCreationOptions) =>
    (typeof tag === 'string' && tag.toLowerCase() === 'style' ? createElement(TAG) : createElement(tag, options))) as Document['createElement'];
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string): void {
    if (name.toLowerCase() === 'style' && this instanceof HTMLElement) {
      this.style.cssText = value;
      return;
    }
    setAttribute.call(this, name, value);
  };
}
