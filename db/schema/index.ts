// One file per domain; every table is re-exported here so drizzle-kit and the typed client see the whole schema.
export * from './identity';
export * from './facilities';
export * from './certificates';
export * from './workflows';
export * from './content';
export * from './hs-codes';
export * from './payments';
export * from './attachments';
export * from './admin';
