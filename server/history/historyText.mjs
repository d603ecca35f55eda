/**
 * The reader of the history's text form (historyLine in timeline.ts): lines of ids, day, four hour
 * masks and each wanted metric's 24 comma-separated cells (blank: not reported), tab-separated.
 * A backtest reads millions of these numbers and a fleet's preview tens of millions: the text is
 * scanned once as bytes (ASCII, so a byte is a character), numbers built digit by digit, with no
 * string made but an ad's ids, once per ad. Plain JavaScript: the fleet's decoding worker
 * (historyTextWorker.mjs) runs it without the TypeScript loader. Types: historyText.d.mts.
 */

const TAB = 9;
const NEWLINE = 10;
const COMMA = 44;
const MINUS = 45;
const ZERO = 48;
const HOUR_MS = 3_600_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function epochDayOf(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** Reads every line of `text` into the series `seriesOf` hands out, hours counted from `startMs`. */
export function readHistoryText(text, metricCount, startMs, seriesOf) {
  const bytes = Buffer.from(text, 'latin1');
  const length = bytes.length;
  let at = 0;
  let series = null;
  let adStart = -1;
  let adEnd = -1;
  while (at < length) {
    // The ad's id: the same as the line before's (an ad's lines come together) keeps its series.
    const idStart = at;
    while (bytes[at] !== TAB) at += 1;
    const idEnd = at;
    let same = series !== null && idEnd - idStart === adEnd - adStart;
    for (let i = 0; same && i < idEnd - idStart; i += 1) same = bytes[idStart + i] === bytes[adStart + i];
    at += 1;
    const campaignStart = at;
    while (bytes[at] !== TAB) at += 1;
    if (!same) {
      series = seriesOf(text.slice(idStart, idEnd), text.slice(campaignStart, at));
      adStart = idStart;
      adEnd = idEnd;
    }
    at += 1;
    // YYYY-MM-DD
    const year =
      (bytes[at] - ZERO) * 1000 + (bytes[at + 1] - ZERO) * 100 + (bytes[at + 2] - ZERO) * 10 + bytes[at + 3] - ZERO;
    const month = (bytes[at + 5] - ZERO) * 10 + bytes[at + 6] - ZERO;
    const dayOfMonth = (bytes[at + 8] - ZERO) * 10 + bytes[at + 9] - ZERO;
    const base = Math.round((epochDayOf(year, month, dayOfMonth) * 24 * HOUR_MS - startMs) / HOUR_MS);
    at += 11;
    let readMask = 0;
    let settledMask = 0;
    let onMask = 0;
    let campaignOnMask = 0;
    for (let m = 0; m < 4; m += 1) {
      let mask = 0;
      for (let c = bytes[at]; at < length && c !== TAB && c !== NEWLINE; c = bytes[at]) {
        mask = mask * 10 + (c - ZERO);
        at += 1;
      }
      if (m === 0) readMask = mask;
      else if (m === 1) settledMask = mask;
      else if (m === 2) onMask = mask;
      else campaignOnMask = mask;
      at += 1;
    }
    for (let h = 0; h < 24; h += 1) {
      if (!((readMask >>> h) & 1)) continue;
      series.read[base + h] = 1;
      series.settled[base + h] = (settledMask >>> h) & 1;
      series.on[base + h] = (onMask >>> h) & 1;
      series.campaignOn[base + h] = (campaignOnMask >>> h) & 1;
    }
    for (let k = 0; k < metricCount; k += 1) {
      const values = series.values[k];
      // Up to 24 cells, each ended by a comma but the last (a blank array: none); the field by a tab or the line's end.
      for (let h = 0; h < 24; h += 1) {
        let c = bytes[at];
        if (at >= length || c === TAB || c === NEWLINE) break;
        let value = Number.NaN;
        if (c !== COMMA) {
          const negative = c === MINUS;
          if (negative) at += 1;
          value = 0;
          for (c = bytes[at]; at < length && c !== COMMA && c !== TAB && c !== NEWLINE; c = bytes[at]) {
            value = value * 10 + (c - ZERO);
            at += 1;
          }
          if (negative) value = -value;
        }
        if ((readMask >>> h) & 1) values[base + h] = value;
        if (bytes[at] === COMMA) at += 1;
      }
      at += 1;
    }
    // A line with more fields than read (none today) ends at its newline.
    while (at < length && bytes[at - 1] !== NEWLINE) at += 1;
  }
}

/**
 * Every ad of the texts as one buffer of its own (transferable): `metricCount` × `hours` numbers
 * (NaN: not reported), then the read, settled, on and campaign-on flags, `hours` bytes each.
 */
export function decodeHistoryTexts(texts, metricCount, startMs, hours) {
  const ads = new Map();
  const seriesOf = (adId, campaignId) => {
    let ad = ads.get(adId);
    if (!ad) {
      const buffer = new ArrayBuffer(metricCount * hours * 8 + 4 * hours);
      const values = [];
      for (let k = 0; k < metricCount; k += 1)
        values.push(new Float64Array(buffer, k * hours * 8, hours).fill(Number.NaN));
      const flags = metricCount * hours * 8;
      ad = {
        adId,
        campaignId,
        buffer,
        series: {
          values,
          read: new Uint8Array(buffer, flags, hours),
          settled: new Uint8Array(buffer, flags + hours, hours),
          on: new Uint8Array(buffer, flags + 2 * hours, hours),
          campaignOn: new Uint8Array(buffer, flags + 3 * hours, hours),
        },
      };
      ads.set(adId, ad);
    }
    return ad.series;
  };
  for (const text of texts) readHistoryText(text, metricCount, startMs, seriesOf);
  return [...ads.values()].map(({ adId, campaignId, buffer }) => ({ adId, campaignId, buffer }));
}
