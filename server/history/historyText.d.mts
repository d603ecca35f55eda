/** Types of historyText.mjs (plain JavaScript, run by the fleet's decoding worker too). */
export interface DecodedSeries {
  /** Per wanted metric, in the order asked. */
  values: Float64Array[];
  read: Uint8Array;
  settled: Uint8Array;
  on: Uint8Array;
  campaignOn: Uint8Array;
}

export function readHistoryText(
  text: string,
  metricCount: number,
  startMs: number,
  seriesOf: (adId: string, campaignId: string) => DecodedSeries,
): void;

/** One ad decoded: `metricCount` × `hours` float64 values, then four `hours`-byte flag arrays (read, settled, on, campaign on). */
export interface DecodedAd {
  adId: string;
  campaignId: string;
  buffer: ArrayBuffer;
}

export function decodeHistoryTexts(texts: string[], metricCount: number, startMs: number, hours: number): DecodedAd[];
