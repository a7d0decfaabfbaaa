// npm run dev: the API server (tsx watch, port 3000) and the Vite dev server (port 5173, proxying /api to 3000)
// side by side, their output prefixed. Ctrl+C stops both; if either exits, the other is stopped too.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;

const processes = [
  { name: 'server', color: 36, cmd: bin('tsx'), args: ['watch', '--clear-screen=false', 'server/main.ts'], env: { PORT: '3000' } },
  { name: 'web', color: 35, cmd: bin('vite'), args: ['--port', '5173', '--strictPort'], env: {} },
];

let stopping = false;
const children = processes.map(({ name, color, cmd, args, env }) => {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['inherit', 'pipe', 'pipe'] });
  const prefix = `\x1b[${color}m[${name}]\x1b[0m `;
  const relay = (stream, out) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(prefix + line + '\n');
    });
    stream.on('end', () => rest && out.write(prefix + rest + '\n'));
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${prefix}exited (${signal ?? code}); stopping the other process\n`);
      stop(code ?? 1);
    }
  });
  return child;
});

function stop(code = 0) {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
console.log('Portal (Vite, hot reload): http://localhost:5173  ·  API: http://localhost:3000/api/docs');
