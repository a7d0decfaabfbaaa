import type { FastifyPluginAsync } from 'fastify';
import chatRoutes from './chat-routes';
import contentRoutes from './content-routes';
import lookupRoutes from './lookup-routes';

/** The public site's API (issue 7): content pages, news, FAQ, HS codes, accredited CBs, verification, assistant. */
const publicModule: FastifyPluginAsync = async (app) => {
  await app.register(contentRoutes);
  await app.register(lookupRoutes);
  await app.register(chatRoutes);
};
export default publicModule;

export { isHalalRelevantHsCode, parseHalalHsRules } from './halal-hs-rules';
export { checkProductHsCode } from './hs-codes';
export { publicPageMeta, injectPageMeta } from './page-meta';
export { publicStatusOf } from './certificate-status';
