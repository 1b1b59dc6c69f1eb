// Starts a prerendered page's scripts once its HTML has been painted (docs/decisions/004-prerender-public-pages.md).
// The page is readable and its links work without JavaScript, so on a slow link the code that hydrates it should
// not compete with the first paint for bandwidth. The build writes the page's chunks (entry first) into the page.
const list = document.getElementById('rr-chunks');
const chunks: string[] = list ? (JSON.parse(list.textContent || '[]') as string[]) : [];

function start() {
  for (const href of chunks.slice(1)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  if (chunks[0]) void import(/* @vite-ignore */ chunks[0]);
}

// The frame after the first one that can paint; a tab opened in the background starts when it is first shown.
requestAnimationFrame(() => setTimeout(start, 0));

export {};
