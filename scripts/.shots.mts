// Temporary: screenshots of the big lists on a seeded database (not committed).
import { launchBrowser, newPage, signIn } from '../tests/e2e/support/browser';
const base = process.env.BASE!;
const browser = await launchBrowser();
const page = await newPage(browser, base);
await signIn(page, process.env.EMAIL!, process.env.PASSWORD!);
for (const [name, url] of [
  ['log', '/log'],
  ['activity', '/activity'],
  ['campaigns', '/campaigns'],
  ['activity-search', '/activity?filter=%7B%22search%22%3A%22Lawson%22%7D'],
  ['team', '/team'],
]) {
  await page.goto(url);
  await page.waitForTimeout(3500);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: false });
  // the last page through the pagination's "next" when the total is estimated
}
await browser.close();
