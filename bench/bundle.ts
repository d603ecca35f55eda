/**
 * The browser bundle: a production `vite build` into a temporary directory, and the JavaScript a
 * first visit loads before anything renders (index.html's module script and its modulepreload
 * chunks), raw and gzip, against the bare react-admin app of docs/decisions.md.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { mergeLatestSection } from './latestJson';

/** docs/decisions.md: a bare react-admin app built the same way is one chunk of 1,051 kB, 326 kB gzip. */
export const BARE_REACT_ADMIN = { rawKb: 1051, gzipKb: 326 };

export interface Chunk {
  file: string;
  rawKb: number;
  gzipKb: number;
}

export interface BundleReport {
  upFront: Chunk[];
  upFrontRawKb: number;
  upFrontGzipKb: number;
  css: Chunk[];
  /** Every JavaScript file of the build, loaded up front or later. */
  allJsRawKb: number;
  allJsGzipKb: number;
  lazyChunks: number;
  buildSeconds: number;
}

/** kB as vite prints them (1,000 bytes), gzip at zlib's default level as vite's report does. */
function sizeOf(file: string, content: Buffer): Chunk {
  return { file, rawKb: content.length / 1000, gzipKb: gzipSync(content).length / 1000 };
}

function runViteBuild(outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
      // A production build whatever the caller's NODE_ENV (a test runner sets 'test').
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (exit ${code}):\n${output.slice(-3000)}`)),
    );
  });
}

const attributeValues = (html: string, tag: RegExp, attribute: string) =>
  [...html.matchAll(tag)]
    .map((m) => new RegExp(`${attribute}="([^"]+)"`).exec(m[0])?.[1])
    .filter((v): v is string => Boolean(v));

export async function measureBundle(): Promise<BundleReport> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-bench-dist-'));
  try {
    const started = performance.now();
    await runViteBuild(outDir);
    const buildSeconds = (performance.now() - started) / 1000;
    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const read = async (href: string) =>
      sizeOf(href.replace(/^\//, ''), await readFile(path.join(outDir, href.replace(/^\//, ''))));

    const scripts = attributeValues(html, /<script\b[^>]*type="module"[^>]*>/g, 'src');
    const preloads = attributeValues(html, /<link\b[^>]*rel="modulepreload"[^>]*>/g, 'href');
    const styles = attributeValues(html, /<link\b[^>]*rel="stylesheet"[^>]*>/g, 'href');
    const upFront = await Promise.all([...new Set([...scripts, ...preloads])].map(read));
    const css = await Promise.all(styles.map(read));

    const assets = await readdir(path.join(outDir, 'assets'));
    const allJs = await Promise.all(assets.filter((f) => f.endsWith('.js')).map((f) => read(`assets/${f}`)));
    const sum = (chunks: Chunk[], key: 'rawKb' | 'gzipKb') => chunks.reduce((total, c) => total + c[key], 0);
    return {
      upFront,
      upFrontRawKb: sum(upFront, 'rawKb'),
      upFrontGzipKb: sum(upFront, 'gzipKb'),
      css,
      allJsRawKb: sum(allJs, 'rawKb'),
      allJsGzipKb: sum(allJs, 'gzipKb'),
      lazyChunks: allJs.length - upFront.length,
      buildSeconds,
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** `npm run bench -- --bundle`: the bundle alone, printed and kept as latest.json's `bundle` section. */
export async function bundleMain(log: (line: string) => void): Promise<void> {
  log('bundle: production vite build…');
  const report = await measureBundle();
  const round = (kb: number) => Number(kb.toFixed(1));
  const upFront = {
    up_front_gzip_kb: round(report.upFrontGzipKb),
    up_front_raw_kb: round(report.upFrontRawKb),
    up_front_files: report.upFront.length,
    bare_react_admin_gzip_kb: BARE_REACT_ADMIN.gzipKb,
    ratio_to_bare: Number((report.upFrontGzipKb / BARE_REACT_ADMIN.gzipKb).toFixed(2)),
    all_js_gzip_kb: round(report.allJsGzipKb),
    lazy_chunks: report.lazyChunks,
  };
  await mergeLatestSection(path.join('bench/results', 'latest.json'), 'bundle', { vite: upFront });
  log(
    `up front: ${upFront.up_front_files} files, ${upFront.up_front_gzip_kb} kB gzip (${upFront.up_front_raw_kb} kB raw), ×${upFront.ratio_to_bare} of a bare react-admin app (${BARE_REACT_ADMIN.gzipKb} kB); all JavaScript ${upFront.all_js_gzip_kb} kB gzip in ${upFront.lazy_chunks} lazy chunks more`,
  );
}
