import { useLayoutEffect, useState } from 'react';

/** A page's <title> and <meta name=...> tags (description, robots, referrer). */
export interface PageMetaTags {
  title?: string;
  description?: string;
  /** Other <meta name> tags by name: robots 'noindex' for one person's link, referrer 'no-referrer'. */
  meta?: Record<string, string>;
}

/**
 * Sets the document's <title> and <meta> tags while the page is shown, in the browser and in the prerendered HTML
 * (scripts/prerender.tsx writes what `collectPageMeta` gathered into the page's <head>). React 19 hoists a
 * <title> or <meta> rendered anywhere into <head>, but keeps every one rendered (a layout's title beside its page's),
 * and renderToString leaves them where they were rendered; this keeps one of each, the page's own (decision 027).
 *
 * Where several are mounted (a layout's and its page's), the one rendered last wins for each tag, as a page's own
 * title is more specific than its layout's. A tag no mounted page sets any more is removed (robots 'noindex' of a
 * personal link does not follow the visitor to the next page).
 */
export function PageMeta(tags: PageMetaTags) {
  // Render order: a layout renders before its page, and a new page after the one it replaces.
  const [order] = useState(() => nextOrder++);
  collecting?.push(tags);
  const key = JSON.stringify(tags);
  useLayoutEffect(() => {
    mounted.set(order, JSON.parse(key) as PageMetaTags);
    applyToDocument();
    return () => {
      mounted.delete(order);
      applyToDocument();
    };
  }, [order, key]);
  return null;
}

let nextOrder = 0;
const mounted = new Map<number, PageMetaTags>();
/** Marks the <meta> tags this module manages (the prerendered ones carry it too). */
const MANAGED = 'data-page-meta';

function merged(all: Iterable<PageMetaTags>): { title?: string; meta: Record<string, string> } {
  let title: string | undefined;
  const meta: Record<string, string> = {};
  for (const tags of all) {
    if (tags.title !== undefined) title = tags.title;
    if (tags.description !== undefined) meta.description = tags.description;
    Object.assign(meta, tags.meta);
  }
  return { title, meta };
}

function applyToDocument() {
  const { title, meta } = merged([...mounted.entries()].sort(([a], [b]) => a - b).map(([, tags]) => tags));
  if (title !== undefined && document.title !== title) document.title = title;
  for (const element of document.head.querySelectorAll<HTMLMetaElement>(`meta[${MANAGED}]`)) {
    if (!(element.name in meta)) element.remove();
  }
  for (const [name, content] of Object.entries(meta)) {
    let element = document.head.querySelector<HTMLMetaElement>(`meta[name="${CSS.escape(name)}"]`);
    if (!element) {
      element = document.createElement('meta');
      element.name = name;
      document.head.append(element);
    }
    element.setAttribute(MANAGED, '');
    if (element.content !== content) element.content = content;
  }
}

let collecting: PageMetaTags[] | null = null;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * Runs one synchronous server render and returns, beside its result, the <head> tags its pages set (the prerender's
 * counterpart of what the browser does on mount).
 */
export function collectPageMeta<T>(render: () => T): { result: T; title?: string; head: string } {
  collecting = [];
  try {
    const result = render();
    const { title, meta } = merged(collecting);
    const head =
      (title === undefined ? '' : `<title>${escapeHtml(title)}</title>`) +
      Object.entries(meta)
        .map(([name, content]) => `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}" ${MANAGED}>`)
        .join('');
    return { result, title, head };
  } finally {
    collecting = null;
  }
}
