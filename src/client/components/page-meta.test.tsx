import { render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { collectPageMeta, PageMeta } from './page-meta';

const meta = (name: string) => document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

afterEach(() => {
  document.title = '';
  document.head.querySelectorAll('meta').forEach((m) => m.remove());
});

describe('PageMeta', () => {
  it("sets the title and meta tags; a page's own win over its layout's, and go when it does", () => {
    const { rerender } = render(
      <>
        <PageMeta title="Dashboard — RuralRoute" description="Your rides." />
        <PageMeta title="Reset — RuralRoute" meta={{ robots: 'noindex' }} />
      </>,
    );
    expect(document.title).toBe('Reset — RuralRoute');
    expect(meta('description')).toBe('Your rides.');
    expect(meta('robots')).toBe('noindex');
    rerender(<PageMeta title="Dashboard — RuralRoute" description="Your rides." />);
    expect(document.title).toBe('Dashboard — RuralRoute');
    // The personal link's noindex does not follow the visitor to the next page.
    expect(meta('robots')).toBeUndefined();
  });

  it('updates a tag the prerendered page already has instead of adding a second', () => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="description" content="Old" data-page-meta>');
    render(<PageMeta title="About — RuralRoute" description="New" />);
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1);
    expect(meta('description')).toBe('New');
  });

  it("collects a server render's tags for the prerendered <head>, escaped", () => {
    const { result, title, head } = collectPageMeta(() =>
      renderToString(
        <main>
          <PageMeta title={'Fish & "chips" — RuralRoute'} description="<b>" meta={{ robots: 'noindex' }} />
          <h1>Hi</h1>
        </main>,
      ),
    );
    expect(result).toBe('<main><h1>Hi</h1></main>');
    expect(title).toBe('Fish & "chips" — RuralRoute');
    expect(head).toBe(
      '<title>Fish &amp; &quot;chips&quot; — RuralRoute</title>' +
        '<meta name="description" content="&lt;b&gt;" data-page-meta>' +
        '<meta name="robots" content="noindex" data-page-meta>',
    );
    // Outside a collection nothing is gathered.
    expect(collectPageMeta(() => renderToString(<p />)).head).toBe('');
  });
});
