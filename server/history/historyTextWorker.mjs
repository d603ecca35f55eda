/**
 * A worker thread that decodes the history's text (historyText.mjs) beside the thread that replays
 * it: a fleet's preview reads tens of millions of numbers, and decoding them on the replaying thread
 * made it wait on both. Each answer's buffers are transferred, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { decodeHistoryTexts } from './historyText.mjs';

parentPort.on('message', ({ id, texts, metricCount, startMs, hours }) => {
  try {
    const ads = decodeHistoryTexts(texts, metricCount, startMs, hours);
    parentPort.postMessage(
      { id, ads },
      ads.map((ad) => ad.buffer),
    );
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
