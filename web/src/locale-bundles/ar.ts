// Every namespace file of locales/ar, as one chunk loaded when the UI is in this language (i18n.ts): the same files
// the server reads, so keys never drift apart.
const files = import.meta.glob<Record<string, unknown>>('../../../locales/ar/*.json', { eager: true, import: 'default' });

export default Object.fromEntries(Object.entries(files).map(([path, content]) => [/([\w-]+)\.json$/.exec(path)![1], content]));
