// A small DOM builder. Text always goes in as text (a player named <script> stays a name),
// and nothing sets inline styles as markup: the page's CSP allows no inline style or script.

type Child = Node | string | null | undefined | false;
type Props = Record<string, string | number | boolean | EventListener | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') {
      element.addEventListener(name.replace(/^on/, ''), value);
    } else if (name === 'class') {
      element.className = String(value);
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replace what `parent` holds, keeping the keyboard focus on the control with the same
 * `data-key` when the new content has one (a re-render must not throw the user's focus away). */
export function replaceChildren(parent: HTMLElement, ...children: (Child | Child[])[]): void {
  const focused = document.activeElement;
  const key = focused instanceof HTMLElement && parent.contains(focused) ? focused.dataset.key : undefined;
  const fragment = document.createDocumentFragment();
  append(fragment, children);
  parent.replaceChildren(fragment);
  if (key === undefined) return;
  const again = parent.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
  (again ?? parent).focus({preventScroll: true});
}

/** Text only screen readers read (a label before a number the eye reads from an icon). */
export function srOnly(text: string): HTMLSpanElement {
  return h('span', {class: 'sr-only'}, text);
}

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}
