/**
 * A page's <title> and meta description. React 19 hoists both into <head>, in the browser and in the prerendered
 * HTML (scripts/prerender.tsx moves them there), so each page is described to search engines and tabs.
 */
export function PageMeta({ title, description }: { title: string; description: string }) {
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
    </>
  );
}
