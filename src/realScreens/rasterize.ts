/**
 * Draws a fixture page with the browser's own layout and text engine, on
 * the page's main thread (it needs a DOM): the page is laid out once in a
 * shadow root, where getBoundingClientRect gives every marked element's
 * box, and once inside an SVG foreignObject drawn to a canvas, which gives
 * the pixels. Both see the same markup, stylesheet and system fonts.
 *
 * Why these choices: the app's CSP forbids inline styles, but not a
 * constructed stylesheet adopted by a shadow root; the SVG goes in as a
 * data: URL because Chromium taints a canvas that drew a blob: SVG with a
 * foreignObject (so getImageData would throw).
 */
import type { RealBox, RealPage, RenderedPage } from './types';

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The page as a standalone SVG image (its stylesheet inside, nothing fetched). */
export function pageSvg(page: RealPage): string {
  const { width: w, height: h } = page;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<foreignObject x="0" y="0" width="${w}" height="${h}">` +
    `<div xmlns="http://www.w3.org/1999/xhtml"><style>${xmlText(page.css)}</style>${page.html}</div>` +
    `</foreignObject></svg>`
  );
}

// The host resets every inherited property, so the app's own styles do not
// reach the page, as none reach the SVG image's separate document.
const HOST_CSS = ':host{all:initial;display:block}';

/** Each marked element's box relative to the page's top-left corner, from the live DOM. */
export function measurePage(page: RealPage, doc: Document = document): Record<string, RealBox> {
  const host = doc.createElement('div');
  host.style.position = 'fixed';
  host.style.left = '0px';
  host.style.top = '0px';
  host.style.visibility = 'hidden';
  host.style.pointerEvents = 'none';
  doc.body.appendChild(host);
  try {
    const root = host.attachShadow({ mode: 'open' });
    const sheets = [HOST_CSS, page.css].map((css) => {
      const s = new CSSStyleSheet();
      s.replaceSync(css);
      return s;
    });
    root.adoptedStyleSheets = sheets;
    root.innerHTML = page.html;
    const pageEl = root.querySelector('.rs-page');
    if (!pageEl) throw new Error(`measurePage: ${page.id} has no .rs-page root`);
    const o = pageEl.getBoundingClientRect();
    if (Math.round(o.width) !== page.width || Math.round(o.height) !== page.height) {
      throw new Error(`measurePage: ${page.id} laid out at ${o.width}×${o.height}, not ${page.width}×${page.height}`);
    }
    const boxes: Record<string, RealBox> = {};
    for (const el of root.querySelectorAll('[data-rs]')) {
      const r = el.getBoundingClientRect();
      boxes[el.getAttribute('data-rs') ?? ''] = { x: r.left - o.left, y: r.top - o.top, w: r.width, h: r.height };
    }
    return boxes;
  } finally {
    host.remove();
  }
}

/** The page's pixels, RGBA, at its screen size, through an SVG image drawn to a canvas. */
export async function rasterizePage(page: RealPage): Promise<Uint8Array> {
  const img = new Image(page.width, page.height);
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(pageSvg(page))}`;
  await img.decode();
  const canvas = new OffscreenCanvas(page.width, page.height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('rasterizePage: no 2D context');
  ctx.drawImage(img, 0, 0, page.width, page.height);
  const data = ctx.getImageData(0, 0, page.width, page.height).data;
  return new Uint8Array(data.buffer.slice(0));
}

export async function renderPage(page: RealPage, doc: Document = document): Promise<RenderedPage> {
  const boxes = measurePage(page, doc);
  const rgba = await rasterizePage(page);
  return { pageId: page.id, width: page.width, height: page.height, rgba, boxes };
}
