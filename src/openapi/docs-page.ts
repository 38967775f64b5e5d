import { FAVICON_SVG } from '../lib/favicon.js';

// What /docs shows people, beside the document tools read: the same operations, without the
// HEAD twins (every GET has one; in the document they stay, for generators), each saying the
// permission its key needs, under the product's name and icon instead of the generator's logo.

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The sentence that opens an operation's description on the page: who may call it. */
export function permissionLine(operation: Json): string {
  const permission = operation['x-permission'];
  if (typeof permission === 'string') return `**Permission:** \`${permission}\``;
  const security = operation.security;
  // An empty requirement among others: a key is optional (it changes what the answer says).
  if (Array.isArray(security) && security.some((s) => s && Object.keys(s as Json).length === 0) && security.length > 1)
    return '**Permission:** none; a key is optional.';
  return '**Permission:** none; no key needed.';
}

/** The document as the docs page shows it: HEAD operations left out, each operation's permission first in its description. */
export function documentForPeople(document: Json): Json {
  const paths = (document.paths ?? {}) as Record<string, Json>;
  const shown: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    const copy: Json = {};
    for (const [key, value] of Object.entries(item)) {
      if (key === 'head') continue;
      if (!METHODS.includes(key)) {
        copy[key] = value;
        continue;
      }
      const operation = value as Json;
      const description =
        typeof operation.description === 'string' && operation.description !== '' ? `\n\n${operation.description}` : '';
      copy[key] = { ...operation, description: `${permissionLine(operation)}${description}` };
    }
    shown[path] = copy;
  }
  return { ...document, paths: shown };
}

/** The product's icon and name, which Swagger UI's logo option puts where its own logo would be. */
const WORDMARK_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 230 40" width="230" height="40">
<g transform="translate(2 4)">${FAVICON_SVG.replace(/^<svg[^>]*>|<\/svg>\s*$|<title>[^<]*<\/title>/g, '')}</g>
<text x="44" y="28" fill="#ffffff" font-family="sans-serif" font-size="22" font-weight="700">Invoicing API</text>
</svg>
`;

/** The logo is an image: this names it for screen readers (alt) and links it to the top of the page. */
const BRAND_SCRIPT = `// Invoicing API: the logo Swagger UI inserts is an image without alt text.
(function () {
  function name() {
    var logo = document.querySelector('#swagger-ui .topbar a.link img');
    if (!logo) return false;
    logo.alt = 'Invoicing API';
    logo.parentElement.setAttribute('href', '/docs');
    return true;
  }
  if (name()) return;
  var observer = new MutationObserver(function () {
    if (name()) observer.disconnect();
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
})();
`;

/** Swagger UI's logo option: the product's icon and name instead of the generator's. */
export const DOCS_LOGO = { type: 'image/svg+xml', content: Buffer.from(WORDMARK_SVG) };

/** The top bar's box for loading another document by URL has no use here (and no label): it is hidden. */
const BRAND_STYLE = `.swagger-ui .topbar .download-url-wrapper { display: none; }
`;

/** Swagger UI's theme option: the title, the icon, the logo's name. */
export const DOCS_THEME = {
  title: 'Invoicing API',
  js: [{ filename: 'brand.js', content: BRAND_SCRIPT }],
  css: [{ filename: 'brand.css', content: BRAND_STYLE }],
  favicon: [
    { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON_SVG) },
  ],
};
