// Debian's pebble (Let's Encrypt's test ACME server) and pebble-challtestsrv (its DNS: every name at 127.0.0.1) on
// loopback for the browser's HTTPS test, as tests/integration/https/pebble.rs starts them for the Rust one: pebble's
// own API certificate made here (openssl), validations without pebble's random sleeps. Every process started here
// is stopped by its PID; every wait is for an event, within a deadline.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';

const tools = ['pebble', 'pebble-challtestsrv', 'openssl'];

/** The tools this needs that are not on the PATH. */
export function missingTools(): string[] {
  return tools.filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
}

/** A loopback port free now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once something accepts connections on `127.0.0.1:port`; fails after `seconds`, or if `child` exits. */
export async function listening(port: number, what: string, child: ChildProcess, seconds = 30): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await connects(port))) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before listening on ${port}`);
    if (Date.now() > deadline) throw new Error(`${what} did not listen on port ${port} within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A GET over HTTPS to 127.0.0.1 trusting only `ca`, naming `servername` (SNI and Host) if given, else the address. */
export function httpsGet(port: number, pathname: string, ca: string, servername?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const named = servername ? { servername, headers: { host: servername } } : {};
    const request = https.get(
      { host: '127.0.0.1', port, path: pathname, ca, timeout: 5000, ...named },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          response.statusCode === 200 ? resolve(body) : reject(new Error(`${pathname}: ${response.statusCode}`)),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

/** Started processes, stopped (by PID) in the reverse order. */
export class Processes {
  private children: ChildProcess[] = [];

  start(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; log: string }): ChildProcess {
    const log = fs.openSync(options.log, 'w');
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    this.children.push(child);
    return child;
  }

  async stopAll(): Promise<void> {
    for (const child of this.children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    this.children = [];
  }
}

export interface Pebble {
  /** The ACME directory's address. */
  directory: string;
  /** The CA file that signed pebble's API certificate (`acme_ca_root`). */
  apiCa: string;
  /** pebble's root of the certificates it issues (made anew at each start), PEM. */
  root(): Promise<string>;
}

/** pebble's API certificate: a CA and a leaf for 127.0.0.1 signed by it, made with openssl. */
function apiCertificate(dir: string): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca-key.pem', '-out', 'api-ca.pem', '-days', '2', '-subj', '/CN=the e2e CA for pebble');
  openssl('req', ...ec, '-keyout', 'api-key.pem', '-out', 'api.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(path.join(dir, 'api.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
  openssl('x509', '-req', '-in', 'api.csr', '-CA', 'api-ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial',
    '-out', 'api.pem', '-days', '2', '-extfile', 'api.ext');
}

/** pebble-challtestsrv and pebble, answering; pebble validates HTTP-01 on `httpPort` and TLS-ALPN-01 on `httpsPort`. */
export async function startPebble(
  processes: Processes,
  root: string,
  httpPort: number,
  httpsPort: number,
): Promise<Pebble> {
  const dir = path.join(root, 'pebble');
  fs.mkdirSync(dir, { recursive: true });
  apiCertificate(dir);
  const [apiPort, managementPort, dnsPort, dnsManagement] = [await freePort(), await freePort(), await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(dir, 'pebble.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${apiPort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: path.join(dir, 'api.pem'),
        privateKey: path.join(dir, 'api-key.pem'),
        httpPort,
        tlsPort: httpsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const dns = processes.start(
    'pebble-challtestsrv',
    ['-dns01', `127.0.0.1:${dnsPort}`, '-management', `127.0.0.1:${dnsManagement}`,
      '-http01', '', '-https01', '', '-tlsalpn01', '', '-defaultIPv6', ''],
    { log: path.join(dir, 'challtestsrv.log') },
  );
  await listening(dnsManagement, 'pebble-challtestsrv', dns);
  const pebble = processes.start(
    'pebble',
    ['-config', path.join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${dnsPort}`],
    { env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' }, log: path.join(dir, 'pebble.log') },
  );
  await listening(apiPort, 'pebble', pebble);
  await listening(managementPort, "pebble's management", pebble);
  const apiCa = path.join(dir, 'api-ca.pem');
  return {
    directory: `https://127.0.0.1:${apiPort}/dir`,
    apiCa,
    root: () => httpsGet(managementPort, '/roots/0', fs.readFileSync(apiCa, 'utf8')),
  };
}
