// The product's icon: a page with three lines on a blue rounded square. As SVG for browsers
// that take it (the panel and /docs link it), and the same drawing as a 32×32 ICO for
// /favicon.ico, which browsers ask for on their own. The ICO is drawn here, pixel by pixel, so
// that no binary file has to be kept in the repository and the two cannot drift apart.

const BLUE = [0x1f, 0x4e, 0x79] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32">
<title>Invoicing API</title>
<rect width="32" height="32" rx="6" fill="#1f4e79"/>
<path d="M9 6h10l5 5v15H9z" fill="#fff"/>
<path d="M12 13h9v2h-9zM12 17h9v2h-9zM12 21h6v2h-6z" fill="#1f4e79"/>
</svg>
`;

/** The colour of pixel (x, y) of the 32×32 drawing (y downwards), or null where it is transparent. */
function pixel(x: number, y: number): readonly [number, number, number] | null {
  const radius = 6;
  // Outside the rounded corners: transparent.
  const cx = x < radius ? radius : x >= 32 - radius ? 32 - radius - 1 : x;
  const cy = y < radius ? radius : y >= 32 - radius ? 32 - radius - 1 : y;
  if ((x - cx) ** 2 + (y - cy) ** 2 > radius ** 2) return null;
  const onPage = x >= 9 && x < 24 && y >= 6 && y < 26 && !(x >= 19 && x - 19 > y - 6);
  if (!onPage) return BLUE;
  const line = (top: number, right: number) => y >= top && y < top + 2 && x >= 12 && x < right;
  return line(13, 21) || line(17, 21) || line(21, 18) ? BLUE : WHITE;
}

/** The drawing as an ICO file: one 32×32 image, 32-bit BGRA bottom-up, with its AND mask. */
export function faviconIco(): Buffer {
  const size = 32;
  const pixels = Buffer.alloc(size * size * 4);
  const mask = Buffer.alloc(size * 4); // one bit a pixel, rows padded to 32 bits
  for (let y = 0; y < size; y++) {
    const row = size - 1 - y; // bottom-up
    for (let x = 0; x < size; x++) {
      const colour = pixel(x, y);
      const at = (row * size + x) * 4;
      if (colour) pixels.set([colour[2], colour[1], colour[0], 0xff], at);
      else mask[row * 4 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const header = Buffer.alloc(6 + 16 + 40);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(40 + pixels.length + mask.length, 14);
  header.writeUInt32LE(22, 18); // where the image starts
  header.writeUInt32LE(40, 22); // BITMAPINFOHEADER
  header.writeInt32LE(size, 26);
  header.writeInt32LE(size * 2, 30); // the image and its mask
  header.writeUInt16LE(1, 34);
  header.writeUInt16LE(32, 36);
  header.writeUInt32LE(pixels.length + mask.length, 42);
  return Buffer.concat([header, pixels, mask]);
}
