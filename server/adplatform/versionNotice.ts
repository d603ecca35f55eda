/**
 * What Graph's answers say of the API version called: `facebook-api-version` (the version that
 * answered: another one when Meta auto-upgraded an expired version), `X-Ad-Api-Version-Warning`
 * (Meta's words on a version being deprecated or upgraded) and `Sunset` (RFC 8594: when it stops
 * working). The transport keeps the latest; the health check judges it (server/health/apiVersion.ts).
 */

export interface VersionNotice {
  /** The version Graph answered as, when it named one. */
  answeredAs?: string;
  /** Meta's X-Ad-Api-Version-Warning, as sent. */
  warning?: string;
  /** When Graph says the version stops working. */
  sunset?: Date;
  seenAt: Date;
}

/** A date in a warning's text: '2027-02-23'. */
const ISO_DAY = /\b(\d{4}-\d{2}-\d{2})\b/;

/** The notice in an answer's headers; undefined when it carries none of them. */
export function readVersionNotice(headers: Headers, at: Date): VersionNotice | undefined {
  const answeredAs = headers.get('facebook-api-version') ?? undefined;
  const warning = headers.get('x-ad-api-version-warning') ?? undefined;
  const sunsetHeader = headers.get('sunset');
  if (!answeredAs && !warning && !sunsetHeader) return undefined;
  let sunset = sunsetHeader ? new Date(sunsetHeader) : undefined;
  if (sunset && Number.isNaN(sunset.getTime())) sunset = undefined;
  const day = warning ? ISO_DAY.exec(warning)?.[1] : undefined;
  if (!sunset && day) sunset = new Date(`${day}T00:00:00Z`);
  return { answeredAs, warning, sunset, seenAt: at };
}
