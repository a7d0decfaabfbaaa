// Every namespace of locales/ar/ in one chunk: a page downloads only its own language's texts, in one request.
export default import.meta.glob<Record<string, unknown>>('../../../locales/ar/*.json', { eager: true, import: 'default' });
