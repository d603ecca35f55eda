/**
 * The soak bench's stand-ins around the product: a TCP gate in front of the Graph simulator that
 * can make the platform unreachable, an SMTP sink that keeps each digest's Message-ID, the worker
 * processes, and a prober that keeps calling the API and notes every 5xx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

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
          const message = JSON.parse(line) as { ready?: boolean; error?: string };
          if (message.ready) resolve();
          if (message.error) this.errors.push(message.error);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => this.errors.push(chunk.toString().trim()));
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
    });
  }

  kill(): void {
    this.kills += 1;
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
  url: string;
  status: number;
}

/** Calls a few API routes one after the other until stopped, as a signed-in superuser. */
export async function probeApi(base: string, credentials: { email: string; password: string }) {
  const answers: ApiAnswer[] = [];
  let token = '';
  let running = true;
  const signIn = async () => {
    const response = await fetch(`${base}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    if (response.ok) token = ((await response.json()) as { access: string }).access;
    return response.status;
  };
  await signIn();
  const urls = ['/api/user/me/', '/api/general_page/?limit=20', '/api/rule_log/?limit=20', '/api/log/?limit=10'];
  const loop = (async () => {
    while (running) {
      for (const url of urls) {
        const at = Date.now();
        const status = await fetch(`${base}${url}`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(10_000),
        }).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
          () => 0, // no answer at all
        );
        answers.push({ at, url, status });
        if (status === 401) answers.push({ at: Date.now(), url: '/api/token/', status: await signIn() });
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
