import arMachines from '../locales/ar/machines.json';
import arStatus from '../locales/ar/status.json';
import enMachines from '../locales/en/machines.json';
import enStatus from '../locales/en/status.json';
import type { EventType, MachineKind } from './types';

/**
 * The Arabic and English labels of the catalogues, read from the same locale files the web and the server use
 * (locales/<lang>/status.json and machines.json), so the catalogues can be shown or documented without i18next.
 */
export type Language = 'ar' | 'en';

const RESOURCES: Record<Language, Record<string, unknown>> = {
  ar: { status: arStatus, machines: arMachines },
  en: { status: enStatus, machines: enMachines },
};

/** Resolves an i18next key (`namespace:dotted.path`) of the status or machines namespace; undefined when missing. */
export function translate(key: string, lang: Language): string | undefined {
  const [ns, path] = key.split(':') as [string, string | undefined];
  if (path === undefined) return undefined;
  let node: unknown = RESOURCES[lang][ns];
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export const statusLabel = (kind: MachineKind, code: number, lang: Language) => translate(`status:${kind}.${code}`, lang);
export const eventLabel = (type: EventType, lang: Language) => translate(`machines:events.${type}`, lang);
