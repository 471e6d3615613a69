// docs/guide.md against docs/images and the script that takes the pictures: every image the guide shows exists,
// every image in docs/images is shown, and the script takes exactly those images, so a picture that the script no
// longer takes (and so no longer checks) cannot stay in the guide.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/built-bundle';

const DOCS = path.join(ROOT, 'docs');
const guide = readFileSync(path.join(DOCS, 'guide.md'), 'utf8');
const script = readFileSync(path.join(ROOT, 'scripts', 'guide-screenshots.ts'), 'utf8');

/** The guide's images: alt text and target of each `![alt](target)`. */
function images(markdown: string): Array<{ alt: string; target: string }> {
  return [...markdown.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((match) => ({ alt: match[1]!, target: match[2]! }));
}

const shown = images(guide);
const inFolder = readdirSync(path.join(DOCS, 'images'))
  .filter((name) => !name.startsWith('.'))
  .sort();

it('shows images by relative links into docs/images, each with alt text', () => {
  expect(shown.length).toBeGreaterThan(0);
  for (const image of shown) {
    expect({ target: image.target, relative: /^images\/[a-z0-9-]+\.png$/.test(image.target) }).toEqual({ target: image.target, relative: true });
    expect({ target: image.target, alt: image.alt.trim().length > 10 }).toEqual({ target: image.target, alt: true });
  }
});

it('links only images that exist', () => {
  const missing = shown.map((image) => image.target.slice('images/'.length)).filter((name) => !inFolder.includes(name));
  expect(missing).toEqual([]);
});

it('links every image in docs/images', () => {
  const linked = new Set(shown.map((image) => image.target.slice('images/'.length)));
  expect(inFolder.filter((name) => !linked.has(name))).toEqual([]);
});

it('holds exactly the images the screenshot script takes', () => {
  // Each shot is taken by shoot('x.png', …), shootGrid('x.png', …) or shootToast('x.png').
  const taken = [...script.matchAll(/\bshoot(?:Grid|Toast)?\('([a-z0-9-]+\.png)'/g)].map((match) => match[1]!);
  expect(new Set(taken).size).toBe(taken.length);
  expect([...taken].sort()).toEqual(inFolder);
});

it('keeps the images small', () => {
  const bytes = inFolder.reduce((sum, name) => sum + readFileSync(path.join(DOCS, 'images', name)).length, 0);
  expect(bytes).toBeLessThan(600_000);
});

it('links the function reference and anchors that exist in the guide', () => {
  expect(guide).toContain('](functions.md)');
  // GitHub's anchors: lower case, spaces to hyphens, punctuation other than hyphens dropped.
  const anchors = new Set(
    [...guide.matchAll(/^#{2,3} (.+)$/gm)].map((match) =>
      match[1]!
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replace(/ /g, '-'),
    ),
  );
  const links = [...guide.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
  expect(links.filter((link) => !anchors.has(link))).toEqual([]);
});
