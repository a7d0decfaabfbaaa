import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isMachineKind } from '../../../machines/registry';
import { statusGraph } from '../../../machines/diagram';
import { eventLabel, statusLabel } from '../requests/present';
import { AppError, AppErrorCode } from '../../errors';
import { errorResponses } from '../../schemas';
import { visibleRequest } from '../requests/service';

const ZDiagram = z.object({
  kind: z.string(),
  machineVersion: z.number(),
  current: z.number(),
  nodes: z.array(z.object({ code: z.number(), label: z.string(), states: z.array(z.string()), column: z.number(), row: z.number(), visited: z.boolean() })),
  edges: z.array(z.object({ from: z.number(), to: z.number(), events: z.array(z.string()), taken: z.number() })),
  /** The statuses the history went through, in order. */
  path: z.array(z.number()),
});

/**
 * The state diagram of one lifecycle (a request, or a bill, certificate or mark: rows of the same engine), generated
 * from the machine version it runs on, with its current status and the path its history took.
 */
const diagramRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/diagram/:id',
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['requests'], summary: 'State diagram of a request (or bill, certificate, mark) with the path taken', params: z.object({ id: z.string().min(1).max(100) }), response: { 200: ZDiagram, ...errorResponses } },
    },
    async (request) => {
      const view = await visibleRequest(app, request.params.id, request.actor!);
      if (!isMachineKind(view.kind)) throw new AppError(AppErrorCode.EntityNotFound);
      const graph = statusGraph(view.kind, view.machineVersion);
      const history = await app.engine.history(view.id);
      const visits = history.length ? [history[0].fromStatus ?? history[0].toStatus, ...history.map((h) => h.toStatus)] : [view.status];
      const path = visits.filter((code, i) => i === 0 || code !== visits[i - 1]);
      const taken = new Map<string, number>();
      for (const h of history) if (h.fromStatus !== null && h.fromStatus !== h.toStatus) taken.set(`${h.fromStatus}>${h.toStatus}`, (taken.get(`${h.fromStatus}>${h.toStatus}`) ?? 0) + 1);
      const visited = new Set(path);
      return {
        kind: view.kind,
        machineVersion: view.machineVersion,
        current: view.status,
        nodes: graph.nodes.map((n) => ({ ...n, label: statusLabel(request.t, view.kind, n.code), visited: visited.has(n.code) })),
        edges: graph.edges.map((e) => ({ ...e, events: e.events.map((x) => eventLabel(request.t, x)), taken: taken.get(`${e.from}>${e.to}`) ?? 0 })),
        path,
      };
    },
  );
};
export default diagramRoutes;
