// Every namespace of locales/en/ in one chunk: a page downloads only its own language's texts, in one request.
export default import.meta.glob<Record<string, unknown>>('../../../locales/en/*.json', { eager: true, import: 'default' });
