import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MACHINE_KINDS, isMachineKind, statusOf, type MachineKind, type MayParams } from '../machines';
import { eventLabel, statusLabel } from '../machines/labels';
import { DEFAULT_ROLES } from '../machines/default-roles';
import { walkMachine, type Coverage } from '../tests/machines/coverage';
import { maximalPaths, pathSteps } from '../tests/machines/paths';

/*
 * `npm run paths -- <kind> [--lang ar|en] [--out dir]` (issue 15, testers): the paths @xstate/graph generates through a
 * machine (the shortest path to every state and transition, the same traversal as tests/machines), printed as numbered
 * test scripts a person can follow (who does what, the status expected after each step) in Markdown, and written to
 * <out>/<kind>.md, <kind>.csv and coverage.html. `all` does every machine.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ScriptStep {
  who: string;
  event: string;
  action: string;
  expectedStatus: number;
  expectedLabel: string;
}

/** Who may take a step: the system, or the default roles granting its permission, with the relation the guard asks. */
export function whoOf(params: MayParams, lang: 'ar' | 'en'): string {
  if (params.relation === 'system') return lang === 'ar' ? 'النظام (مؤقت أو بوابة السداد)' : 'System (timer or payment portal)';
  const wanted = params.permission === undefined ? [] : typeof params.permission === 'string' ? [params.permission] : [...params.permission];
  const roles = DEFAULT_ROLES.filter((r) => r.name !== 'admin' && wanted.some((p) => (r.permissions as readonly string[]).includes(p))).map((r) => r.name);
  const relation = params.relation ? ` [${params.relation}]` : '';
  return `${roles.length ? roles.join(' / ') : wanted.join(' / ') || (lang === 'ar' ? 'أي مستخدم' : 'any user')}${relation}`;
}

/** The maximal shortest paths of a machine (a path that is a prefix of another is left out), as test scripts. */
export function scriptsOf(kind: MachineKind, lang: 'ar' | 'en' = 'en'): { initial: { code: number; label: string }; steps: ScriptStep[] }[] {
  const { initial: start, paths } = pathSteps(kind);
  const initial = { code: statusOf(start), label: statusLabel(kind, statusOf(start), lang) ?? '' };
  const scripts = paths.map((p) =>
    p.map((s): ScriptStep => {
      const code = statusOf(s.after);
      return { who: whoOf(s.guard, lang), event: s.event.type, action: eventLabel(s.event.type, lang) ?? s.event.type, expectedStatus: code, expectedLabel: statusLabel(kind, code, lang) ?? '' };
    }),
  );
  const key = (steps: ScriptStep[]) => steps.map((s) => `${s.event}>${s.expectedStatus}`).join('\n');
  const maximal = maximalPaths(scripts, (s) => `${s.event}>${s.expectedStatus}`);
  // Identical scripts (the traversal distinguishes context the reader does not see) are printed once.
  const unique = [...new Map(maximal.map((s) => [key(s), s])).values()];
  return unique.map((steps) => ({ initial, steps }));
}

export function toMarkdown(kind: MachineKind, scripts: ReturnType<typeof scriptsOf>, lang: 'ar' | 'en'): string {
  const head = lang === 'ar' ? ['#', 'من', 'يفعل', 'الحالة المتوقعة بعدها'] : ['#', 'Who', 'Does', 'Expected status after'];
  const out = [`# ${kind}: ${scripts.length} ${lang === 'ar' ? 'سيناريو اختبار مولّد من الآلة' : 'test scripts generated from the machine'}`, ''];
  scripts.forEach((s, i) => {
    out.push(`## ${lang === 'ar' ? 'السيناريو' : 'Script'} ${i + 1}`, '');
    out.push(`${lang === 'ar' ? 'البداية' : 'Start'}: ${s.initial.code} ${s.initial.label}`, '');
    out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    s.steps.forEach((st, n) => out.push(`| ${n + 1} | ${st.who} | ${st.action} (\`${st.event}\`) | ${st.expectedStatus} ${st.expectedLabel} |`));
    out.push('');
  });
  return out.join('\n');
}

const csvCell = (v: string | number) => {
  const s = String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function toCsv(kind: MachineKind, scripts: ReturnType<typeof scriptsOf>): string {
  const rows = [['kind', 'script', 'step', 'who', 'event', 'action', 'expectedStatus', 'expectedLabel']];
  scripts.forEach((s, i) => s.steps.forEach((st, n) => rows.push([kind, String(i + 1), String(n + 1), st.who, st.event, st.action, String(st.expectedStatus), st.expectedLabel])));
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The coverage report: per machine, the states and transitions the model-based machine suite (tests/machines) takes,
 * and the API suite's share where a suite replays the generated paths over HTTP (tests/server/*-paths.test.ts).
 */
export function coverageHtml(results: Coverage[], apiReplayed: Set<MachineKind>): string {
  const pct = (a: number, b: number) => (b ? `${Math.round((a / b) * 100)} %` : '—');
  const rows = results.map((c) => {
    const states = c.states.filter((s) => c.coveredStates.has(s)).length;
    const transitions = c.transitions.filter((t) => c.coveredTransitions.has(t)).length;
    const missing = [...c.states.filter((s) => !c.coveredStates.has(s)), ...c.transitions.filter((t) => !c.coveredTransitions.has(t))];
    const api = apiReplayed.has(c.kind) ? `${states}/${c.states.length} · ${transitions}/${c.transitions.length}` : 'not replayed over HTTP';
    return `<tr><td>${esc(c.kind)}</td><td>${states}/${c.states.length} (${pct(states, c.states.length)})</td><td>${transitions}/${c.transitions.length} (${pct(transitions, c.transitions.length)})</td><td>${c.paths}</td><td>${esc(api)}</td><td>${missing.length ? esc(missing.join(', ')) : '—'}</td></tr>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Machine path coverage</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:start}th{background:#f0fdfa}</style></head>
<body><h1>Machine path coverage</h1>
<p>Generated by <code>npm run paths</code> on ${new Date().toISOString()}. "Machine suite": states and transitions the model-based walk of tests/machines takes (every generated path replayed through the machine API). "API suite": the same paths replayed over HTTP against a real server (tests/server/*-paths.test.ts). The browser suites (tests/e2e) are scripted by hand and not measured here.</p>
<table><thead><tr><th>Machine</th><th>States (machine suite)</th><th>Transitions (machine suite)</th><th>Paths</th><th>API suite (states · transitions)</th><th>Not covered</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></body></html>
`;
}

/** Machines whose generated paths an API suite replays over HTTP (each has its own tests/server/<kebab>-paths.test.ts). */
const API_REPLAYED = new Set<MachineKind>(['internalCertificate']);

async function main(argv: string[]) {
  const args = argv.filter((a) => !a.startsWith('--'));
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const lang = opt('lang') === 'ar' ? 'ar' : 'en';
  const out = opt('out') ?? join(ROOT, 'test-results/paths');
  const wanted = args.filter((a) => a !== opt('lang') && a !== opt('out'));
  const kinds = !wanted.length || wanted.includes('all') ? [...MACHINE_KINDS] : wanted;
  for (const k of kinds) {
    if (!isMachineKind(k)) {
      console.error(`unknown machine kind "${k}"; one of: ${MACHINE_KINDS.join(', ')}`);
      process.exit(2);
    }
  }
  mkdirSync(out, { recursive: true });
  const results: Coverage[] = [];
  for (const kind of kinds as MachineKind[]) {
    const scripts = scriptsOf(kind, lang);
    const md = toMarkdown(kind, scripts, lang);
    writeFileSync(join(out, `${kind}.md`), md);
    writeFileSync(join(out, `${kind}.csv`), toCsv(kind, scripts));
    if (kinds.length === 1) console.log(md);
    else console.log(`${kind}: ${scripts.length} scripts`);
    results.push(await walkMachine(kind));
  }
  writeFileSync(join(out, 'coverage.html'), coverageHtml(results, API_REPLAYED));
  console.error(`wrote ${kinds.length === 1 ? `${kinds[0]}.md, ${kinds[0]}.csv` : `${kinds.length} machines' .md and .csv`} and coverage.html to ${out}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2));
}
