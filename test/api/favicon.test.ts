import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance } from '../helpers/panel-client.js';

// Browsers ask every host for /favicon.ico; the panel and /docs link the same icon as SVG. No
// storage is involved, so one database is enough.

describe('the favicon', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('answers /favicon.ico with a 32×32 icon that may be cached, not a 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const ico = res.rawPayload;
    // ICONDIR: an icon with one image; its entry: 32×32, 32 bits a pixel, the image right after.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7], ico.readUInt16LE(12), ico.readUInt32LE(18)]).toEqual([32, 32, 32, 22]);
    expect(ico.readUInt32LE(14)).toBe(ico.length - 22);
    // The BITMAPINFOHEADER: 32 wide, twice 32 high (the image and its mask).
    expect([ico.readUInt32LE(22), ico.readInt32LE(26), ico.readInt32LE(30)]).toEqual([40, 32, 64]);
    // Opaque pixels in the middle (the page), transparent corners (the mask's first bit is set).
    const pixel = (x: number, y: number) => ico.readUInt32LE(62 + ((31 - y) * 32 + x) * 4);
    expect(pixel(10, 10)).toBe(0xffffffff);
    expect(pixel(0, 0) >>> 24).toBe(0);
    expect(ico[62 + 32 * 32 * 4]! & 0x80).toBe(0x80);
    const head = await t.app.inject({ method: 'HEAD', url: '/favicon.ico' });
    expect(head.statusCode).toBe(200);
  });

  it('is linked from every panel page, as ICO and as SVG, and the SVG is served', async () => {
    const { owner } = await claimInstance(t.app);
    const signIn = (await t.app.inject({ method: 'GET', url: '/panel/sign-in' })).body;
    for (const page of [signIn, (await owner.get('/panel/keys')).body]) {
      expect(page).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">');
      expect(page).toContain('<link rel="icon" href="/panel/assets/favicon.svg" type="image/svg+xml">');
    }
    const svg = await t.app.inject({ method: 'GET', url: '/panel/assets/favicon.svg' });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('public, max-age=3600');
    expect(svg.body).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 32 32" width="32" height="32">/,
    );
  });
});
