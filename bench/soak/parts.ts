/**
 * The soak bench's stand-ins around the product: a TCP gate in front of the Graph simulator that
 * can make the platform unreachable, an SMTP sink that keeps each digest's Message-ID, the worker
 * and API processes, a prober that keeps calling the APIs and notes every 5xx, and a driver that
 * presses Run now on either API, sometimes on both at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../../tests/e2e/support/server';

/** A TCP forwarder; `closed` true: every connection is cut at once, as when the platform is unreachable. */
export async function platformGate(target: string) {
  const url = new URL(target);
  const open = new Set<Socket>();
  let closed = false;
  const server = createServer((client) => {
    if (closed) return void client.destroy();
    const upstream = connect(Number(url.port), url.hostname);
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    setClosed(value: boolean) {
      closed = value;
      if (value) for (const socket of open) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedDigest {
  messageId: string;
  subject: string;
}

/** An SMTP server that keeps what arrives: Message-ID and subject. */
export async function digestSink() {
  const received: ReceivedDigest[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then(
          (mail) => {
            received.push({ messageId: mail.messageId ?? '', subject: mail.subject ?? '' });
            done();
          },
          (error: Error) => done(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A worker process (bench/soak/worker.ts): started, SIGKILLed, started again. */
export class SoakWorker {
  child: ChildProcess | undefined;
  starts = 0;
  kills = 0;
  /** The rule_runs ids the process keeps alive now (its heartbeat's holdings, as it last told). */
  running: number[] = [];
  readonly errors: string[] = [];

  constructor(private readonly env: Record<string, string>) {}

  async start(): Promise<void> {
    this.starts += 1;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'worker.ts')], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let buffer = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) {
          const message = JSON.parse(line) as { ready?: boolean; error?: string; running?: number[] };
          if (message.ready) resolve();
          if (message.running && this.child === child) this.running = message.running;
          if (message.error) this.errors.push(message.error);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => this.errors.push(chunk.toString().trim()));
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
    });
  }

  kill(): void {
    this.kills += 1;
    this.running = [];
    this.child?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

export interface ApiAnswer {
  at: number;
  /** When the answer (or the failure) came. */
  end: number;
  /** Which API process (its index). */
  api: number;
  url: string;
  status: number;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * One API process (server/main.ts, ROLE=api) on the soak's clock (simClock.ts): started, signed in
 * as the soak's admin, SIGKILLed, started again. Its stderr/stdout error lines are kept.
 */
export class SoakApi {
  child: ChildProcess | undefined;
  /** Real times it was down: from the kill until it answered again. */
  readonly down: { from: number; to: number }[] = [];
  kills = 0;
  up = false;
  token = '';
  readonly errors: string[] = [];

  /** A new port at each start: connections the client kept to the killed process are never reused. */
  port = 0;

  constructor(
    readonly index: number,
    private readonly env: Record<string, string>,
    private readonly credentials: { email: string; password: string },
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.port = await freePort();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', path.join(import.meta.dirname, 'simClock.ts'), 'server/main.ts'],
      { cwd: ROOT, env: { ...process.env, ...this.env, PORT: String(this.port) }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let buffer = '';
    const keep = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        // JSON log lines at level error (50) and above, and anything else written to stderr.
        const level = /^\{/.test(line) ? ((JSON.parse(line) as { level?: number }).level ?? 0) : 50;
        if (level >= 50) this.errors.push(line.slice(0, 400));
      }
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`API ${this.index + 1} exited (${child.exitCode})`);
      const ready = await fetch(`${this.url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`API ${this.index + 1} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await this.signIn();
    const last = this.down.at(-1);
    if (last && !last.to) last.to = Date.now();
    this.up = true;
  }

  async signIn(): Promise<number> {
    const response = await fetch(`${this.url}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.credentials),
      signal: AbortSignal.timeout(20_000),
    });
    if (response.ok) this.token = ((await response.json()) as { access: string }).access;
    else await response.arrayBuffer();
    return response.status;
  }

  /** A call as the signed-in admin: the status (0: no answer), the JSON body of a 200, else the answer's start. */
  async call(
    method: string,
    url: string,
    timeoutMs = 60_000,
  ): Promise<{ status: number; body?: unknown; detail?: string }> {
    return fetch(`${this.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(timeoutMs),
    }).then(
      async (response) => {
        if (response.status === 200) return { status: 200, body: await response.json().catch(() => undefined) };
        const detail = (await response.text().catch(() => '')).slice(0, 200);
        return { status: response.status, detail };
      },
      (error: unknown) => ({ status: 0, detail: String(error) }),
    );
  }

  kill(): void {
    this.kills += 1;
    this.up = false;
    this.down.push({ from: Date.now(), to: 0 });
    this.child?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.up = false;
    if (!child || child.exitCode !== null || child.signalCode) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Calls a few API lists one after the other until stopped, on each API in turn while it is up. */
export function probeApis(apis: SoakApi[]) {
  const answers: ApiAnswer[] = [];
  let running = true;
  const urls = ['/api/user/me/', '/api/general_page/?limit=20', '/api/rule_log/?limit=20', '/api/log/?limit=10'];
  const loop = (async () => {
    let turn = 0;
    while (running) {
      const api = apis[turn++ % apis.length]!;
      if (!api.up) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      for (const url of urls) {
        const at = Date.now();
        const { status } = await api.call('GET', url, 10_000);
        answers.push({ at, end: Date.now(), api: api.index, url, status });
        if (status === 401) {
          const signInAt = Date.now();
          const signIn = await api.signIn().catch(() => 0);
          answers.push({ at: signInAt, end: Date.now(), api: api.index, url: '/api/token/', status: signIn });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await loop;
    },
  };
}

export interface RunNowAnswer extends ApiAnswer {
  ruleId: number;
  /** Pressed on both APIs at the same moment. */
  together: boolean;
  turnedOff: number;
  outcome?: string;
  /** A non-200 answer's start. */
  detail?: string;
}

/**
 * Presses Run now (`POST /api/rules/:id/run_now/`) on a random rule every 2–4 s, on one API or —
 * one time in four — on both at the same moment; `press` does it on demand. Paused while an API kill is staged.
 */
export function driveRunNow(apis: SoakApi[], ruleIds: number[]) {
  const answers: RunNowAnswer[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let running = true;
  let paused = false;
  const pressOn = (api: SoakApi, ruleId: number, together: boolean) => {
    const at = Date.now();
    const url = `/api/rules/${ruleId}/run_now/`;
    const pressed = api.call('POST', url, 120_000).then(({ status, body, detail }) => {
      const answer = body as { status?: string; turned_off?: number } | undefined;
      answers.push({
        at,
        end: Date.now(),
        api: api.index,
        url,
        status,
        ruleId,
        together,
        turnedOff: answer?.turned_off ?? 0,
        outcome: answer?.status,
        detail,
      });
      return status;
    });
    inFlight.add(pressed);
    void pressed.finally(() => inFlight.delete(pressed));
    return pressed;
  };
  const press = (ruleId: number, on: SoakApi[]) => Promise.all(on.map((api) => pressOn(api, ruleId, on.length > 1)));
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 2_000 + Math.random() * 2_000));
      const up = apis.filter((api) => api.up);
      if (paused || !up.length || inFlight.size >= 6) continue;
      const ruleId = ruleIds[Math.floor(Math.random() * ruleIds.length)]!;
      const together = up.length > 1 && Math.random() < 0.25;
      void press(ruleId, together ? up : [up[Math.floor(Math.random() * up.length)]!]);
    }
  })();
  return {
    answers,
    press,
    pause(value: boolean) {
      paused = value;
    },
    async stop() {
      running = false;
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}
