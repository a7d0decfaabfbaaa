/**
 * Shared form schemas of the certification services (pure zod: importable by the web and the server). Messages are
 * keys of the `validation` namespace, so one schema gives the same bilingual messages on both sides.
 */
export * from './messages';
export * from './hs-relevance';
export * from './catalogues';
export * from './attachment-categories';
export * from './fields';
export * from './product';
export * from './internal-request';
export * from './parts';
