import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { asc } from 'drizzle-orm';
import { z } from 'zod';
import { faqItems } from '../../../db/schema';
import { recaptchaVerifierOf } from '../../adapters/recaptcha';
import { errorResponses } from '../../schemas';
import { answerFromFaq } from './faq-assistant';
import { CHAT_MESSAGE_MAX, ZChatReply } from './schemas';

/** Spec 01 section 7: chat-assistant calls carry a reCAPTCHA token header. */
export const RECAPTCHA_TOKEN_HEADER = 'recaptcha-token';

/** The live-chat assistant: answers from the FAQ in the caller's language; every call must carry a reCAPTCHA token. */
const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const verifier = recaptchaVerifierOf(app);
  const checkToken = async (request: FastifyRequest) => {
    const token = request.headers[RECAPTCHA_TOKEN_HEADER];
    await verifier.verify(typeof token === 'string' ? token : undefined, request.ip);
  };
  const loadFaq = () => app.db.select().from(faqItems).orderBy(asc(faqItems.sortOrder));

  app.get(
    '/api/public/chat/welcome',
    {
      config: { policy: 'public', recaptchaHeader: true },
      schema: {
        tags: ['public'],
        summary: "The assistant's greeting and suggested questions",
        response: { 200: z.object({ greeting: z.string(), suggestions: z.array(z.object({ id: z.string(), question: z.string() })) }), ...errorResponses },
      },
      preHandler: checkToken,
    },
    async (request) => {
      const ar = request.lang === 'ar';
      const faq = await loadFaq();
      return {
        greeting: request.t('public:chat.greeting'),
        suggestions: faq.slice(0, 4).map((f) => ({ id: f.id, question: ar ? f.questionAr : f.questionEn })),
      };
    },
  );

  app.post(
    '/api/public/chat',
    {
      config: { policy: 'public', recaptchaHeader: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['public'],
        summary: 'Ask the assistant (at most 70 characters)',
        body: z.object({ message: z.string().trim().min(1, 'required').max(CHAT_MESSAGE_MAX) }),
        response: { 200: ZChatReply, ...errorResponses },
      },
      preHandler: checkToken,
    },
    async (request) => {
      const reply = answerFromFaq(await loadFaq(), request.body.message, request.lang);
      return {
        faqId: reply.faqId,
        question: reply.question,
        answer: reply.answer ?? request.t('public:chat.noAnswer'),
        matched: reply.answer !== null,
        suggestions: reply.suggestions,
      };
    },
  );
};
export default chatRoutes;
