/**
 * Server logs: JSON lines in production, readable coloured lines (pino-pretty) when stdout is a
 * terminal (LOG_FORMAT auto|json|pretty). One line per request, written when the answer is sent
 * (method, URL, route pattern, status, duration): at info, except the probes, /metrics and the
 * browser app's files, which are at debug. Links from e-mails carry secrets in their path
 * (/join/<code>, /confirm-password-reset/<token>, /confirm-email-change/<token>) and some URLs in
 * their query: those parts are replaced by [redacted] in every line that shows a URL.
 */
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

const REDACTED = '[redacted]';
/** Browser-app paths whose next segment is a secret. */
const SECRET_PATH = /^(\/(?:join|confirm-password-reset|confirm-email-change))\/[^/?#]+/;
/** Query parameters whose value may be a secret. */
const SECRET_PARAM = /token|code|secret|password|key|signature/i;

/** The URL (path and query) with its secret parts replaced. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, `$1/${REDACTED}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0]!;
      return SECRET_PARAM.test(decodeURIComponentSafe(name)) && pair.includes('=') ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function prettyLogsWanted(config: Pick<Config, 'logFormat'>, isTty = Boolean(process.stdout.isTTY)): boolean {
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && isTty);
}

/** Fastify's `logger` option; `destination` replaces stdout (tests read the lines from it). */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  destination?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  const base = {
    level: config.logLevel,
    // Fastify's own lines that carry the request (errors) show its URL redacted too.
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        remoteAddress: req.ip,
      }),
    },
  };
  if (destination) return { ...base, stream: destination };
  if (!prettyLogsWanted(config)) return base;
  return {
    ...base,
    transport: {
      target: 'pino-pretty',
      options: {
        translateTime: 'SYS:HH:MM:ss',
        singleLine: true,
        // The request line's message already says all of these.
        ignore: 'pid,hostname,reqId,method,url,route,status,durationMs',
      },
    },
  };
}

/** Probes, metrics and the browser app's files: frequent and uninteresting, so at debug. */
function isQuiet(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route === '/healthz' || route === '/readyz' || route === '/metrics') return true;
  const path = request.url.split('?')[0]!;
  return !path.startsWith('/api/') && /\.[a-z0-9]+$/i.test(path);
}

/**
 * Fastify's request log lines, replaced: nothing when a request comes in, one line when its answer
 * has been sent (at error level, with the error, when sending it failed).
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const url = redactUrl(request.url);
    const durationMs = Math.round(reply.elapsedTime * 10) / 10;
    const line = { method: request.method, url, route: request.routeOptions.url, status: reply.statusCode, durationMs };
    const message = `${request.method} ${url} ${reply.statusCode} ${durationMs} ms`;
    if (error) reply.log.error({ ...line, err: error }, `${message} (${error.message})`);
    else if (isQuiet(request)) reply.log.debug(line, message);
    else reply.log.info(line, message);
  }
}
