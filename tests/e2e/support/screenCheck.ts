/**
 * What every screen is held to, at a phone's 390×844 and a desktop's 1280×800: the page never
 * scrolls sideways, the screen's primary actions are on screen, and axe-core (WCAG 2.0/2.1 A and
 * AA) finds nothing. A screenshot of each is kept for a person to look at.
 */
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { settled } from './browser';
import { ROOT } from './server';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
export type Width = 'phone' | 'desktop';

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface Finding {
  screen: string;
  width: Width;
  problem: string;
}

/** Axe's violations as one line each: rule, impact and the first few offending elements. */
export async function axeViolations(page: Page): Promise<string[]> {
  if ((await page.evaluate('typeof window.axe')) !== 'object') await page.addScriptTag({ path: axeSource });
  const violations = (await page.evaluate(`window.axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((r) => r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' — ' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 160)),
    })))`)) as { id: string; impact: string; nodes: string[] }[];
  return violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.join(' | ')}`);
}

/** How many CSS pixels the page is wider than the window (0: no sideways scrolling). */
export const pageOverflow = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

/** The outermost elements that reach past the window's right edge, for the failure message. */
const overflowing = (page: Page) =>
  page.evaluate(`[...document.body.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
      && e.parentElement && e.parentElement.getBoundingClientRect().right <= document.documentElement.clientWidth + 1)
    .slice(0, 4)
    .map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].filter((c) => !c.startsWith('css-')).slice(0, 3).join('.')
      + ' (' + Math.round(e.getBoundingClientRect().width) + 'px)')`) as Promise<string[]>;

/** True when the element is shown and lies within the window's width. */
export async function withinWidth(locator: Locator, width: number): Promise<boolean> {
  if (!(await locator.isVisible())) return false;
  const box = await locator.boundingBox();
  return Boolean(box && box.x >= 0 && box.x + box.width <= width + 0.5);
}

export async function windowScreenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(ROOT, 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * Checks the screen as it is now at the page's current width; returns what is wrong (empty: all
 * good). `primary` are the actions a person comes to the screen for.
 */
export async function checkScreen(
  page: Page,
  screen: string,
  width: Width,
  primary: Locator[] = [],
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const found = (problem: string) => findings.push({ screen, width, problem });
  const viewport = page.viewportSize()!;
  const overflow = await pageOverflow(page);
  if (overflow > 0) found(`the page is ${overflow}px wider than the window: ${(await overflowing(page)).join(', ')}`);
  for (const action of primary)
    if (!(await withinWidth(action.first(), viewport.width))) found(`not on screen: ${action.toString()}`);
  for (const violation of await axeViolations(page)) found(`axe ${violation}`);
  await windowScreenshot(page, `${screen}-${width}`);
  return findings;
}

/**
 * Checks the screen on the phone, then on the desktop, and leaves the page at the phone's size;
 * `primary` are looked up afresh at each width. Answers every finding as 'width: problem'.
 */
export async function checkBothWidths(
  page: Page,
  screen: string,
  primary: (page: Page) => Locator[] = () => [],
): Promise<string[]> {
  const findings: Finding[] = [];
  for (const [size, width] of [
    [PHONE, 'phone'],
    [DESKTOP, 'desktop'],
  ] as const) {
    await page.setViewportSize(size);
    await settled(page);
    findings.push(...(await checkScreen(page, screen, width, primary(page))));
  }
  await page.setViewportSize(PHONE);
  return findings.map((f) => `${f.width}: ${f.problem}`);
}
