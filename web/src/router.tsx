import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type AnyRoute,
  type ErrorComponentProps,
  type RouteComponent,
} from '@tanstack/react-router';
import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Permissions as P } from '../../machines/permissions';
import { api, data } from './api/client';
import { queryClient } from './api/query';
import { ApiError, isScreenStatus, refusalOf } from './api/errors';
import { AppShell, shellShown, useDocumentLanguage } from './components/AppShell';
import { ErrorScreen } from './components/ErrorScreen';
import { placeholder } from './components/PlaceholderPage';
import { currentLanguage, isLanguage, setLanguage } from './i18n';
import { publicRoutes } from './routes/public';
import { facilityScreens } from './routes/facilities';
import { requestScreens } from './routes/requests';
import { adminScreens } from './routes/admin';
import { textScreens } from './routes/texts';
import { serviceScreens } from './routes/services';
import { recordScreens } from './routes/records';
import { genericStartKinds, WIZARD } from './routes/services/wizards';
import { addCategoriesPrerequisites } from './routes/services/prerequisites';
import { registerScreens } from './screens';
import { START_ROUTES } from '../../machines/services/start-routes';
import type { RequestKind } from '../../machines/services/types';
import { decideAccess, landingPath, safeReturnUrl, type RouteAccess } from './session/access';
import { ensureSession, sessionStore, startSessionLoad } from './session/session-store';
import { announceHydrated } from './prerender/hydrated';
import type { NoticeMessage } from './routes/requests/notices';

/**
 * The route table of spec 01 section 2. Each entry names its path, who may open it and its component. A screen
 * built later replaces its `placeholder(...)` with the real component — one line, e.g.
 *   component: lazyRouteComponent(() => import('./routes/hs-code/HsCodePage'), 'HsCodePage'),
 * Guards run in beforeLoad (see session/access.ts): anonymous -> sign-in page with returnUrl, missing policy ->
 * the 403 screen, staff-only / non-staff routes -> the user's own start page. A screen reads its params with
 * `useRouteParams('<its path>')` (route-params.ts: typed from the path). A route whose screen needs several calls
 * names a `loader` that starts them together into the query cache (api/query.ts), e.g. requests/$requestId.
 */

/** Thrown by a guard (or a screen's own prerequisite check) to show the full 403 screen in place. */
export class ForbiddenRouteError extends Error {
  readonly status = 403;
  constructor() {
    super('Forbidden');
  }
}

export interface RouterContext {
  session: typeof sessionStore;
  queryClient: QueryClient;
}

export interface RouteEntry {
  path: string;
  component: RouteComponent;
  access?: RouteAccess;
  /** Runs after the access check passed (e.g. a prerequisite call); may throw redirect() or ForbiddenRouteError. */
  check?: (params: Record<string, string>, search: Record<string, unknown>) => Promise<void>;
  /** Starts the screen's calls (in parallel) into the query cache before it renders; params typed by ParamsOf<path>. */
  loader?(params: Record<string, string>, queryClient: QueryClient): Promise<unknown>;
}

const facilityPolicies = [P.facility.conformityBody, P.facility.internal, P.facility.external];
const adminOnly: RouteAccess = { anyOf: [P.admin.manage] };

export const routeTable: RouteEntry[] = [
  // Open to everyone: the public site (routes/public: home, user manual, HS codes, CBs, content pages, verify).
  ...publicRoutes,
  // The account forms are lazy like every other screen (issue 18 item 1: not in the entry script).
  { path: 'account/login', component: lazyRouteComponent(() => import('./routes/login/LoginPage'), 'LoginPage') },
  // Issue 17 item 6: self-service sign-up and password reset (spec 01 names no paths; these sit beside account/login).
  { path: 'account/register', component: lazyRouteComponent(() => import('./routes/account/RegisterPage'), 'RegisterPage') },
  { path: 'account/forgot-password', component: lazyRouteComponent(() => import('./routes/account/ForgotPasswordPage'), 'ForgotPasswordPage') },
  { path: 'delegate-invitation/$token', component: facilityScreens.delegateInvitation },

  // Signed-in users' start pages: staff on halal-profile, everybody else on associated-facilities.
  { path: 'associated-facilities', component: facilityScreens.associatedFacilities, access: { anyOf: facilityPolicies, staff: 'elsewhere' } },
  { path: 'halal-profile', component: requestScreens.staffHome, access: { staff: 'only' } },
  { path: 'halal-profile/cb/$id', component: facilityScreens.staffCb, access: { staff: 'only' } },
  { path: 'halal-profile/facility/$id', component: facilityScreens.staffFacility, access: { staff: 'only' } },
  { path: 'dashboard', component: adminScreens.dashboard, access: { anyOf: [P.dashboard.host, P.dashboard.tenant] } },
  { path: 'personal-profile/personal-data', component: facilityScreens.personalProfile, access: { signedIn: true } },

  // Administration modules.
  { path: 'account', component: textScreens.account, access: { signedIn: true } },
  { path: 'gdpr', component: adminScreens.gdpr, access: { signedIn: true } },
  { path: 'identity', component: adminScreens.identity, access: adminOnly },
  { path: 'language-management', component: textScreens.languageManagement, access: { anyOf: [P.settings.manage] } },
  { path: 'saas', component: textScreens.saas, access: adminOnly },
  { path: 'audit-logs', component: adminScreens.auditLogs, access: { anyOf: [P.auditLogs.view] } },
  { path: 'openiddict', component: textScreens.openiddict, access: adminOnly },
  { path: 'text-template-management', component: textScreens.textTemplates, access: { anyOf: [P.settings.manage] } },
  { path: 'setting-management', component: adminScreens.settings, access: { anyOf: [P.settings.manage] } },

  // Facilities, conformity bodies and their profiles.
  { path: 'facility', component: recordScreens.myProfile, access: { anyOf: facilityPolicies } },
  { path: 'facility-profile/cb/$cbPublicId', component: facilityScreens.cbProfile, access: { anyOf: [P.facility.conformityBody] }, loader: facilityScreens.loadCbProfile },
  // Spec 01's route of the CB's designation certificate: the certificate page (details, categories, status, PDF, QR);
  // the server decides who may read the certificate, as for /certificates/$id.
  {
    path: 'facility-profile/cb/$cbPublicId/certifications/cb-halal-certificate/$certificateId',
    component: requestScreens.certificate,
    access: { anyOf: [P.facility.conformityBody] },
  },
  { path: 'facility-profile/cb/$cbPublicId/requests', component: serviceScreens.facilityRequests, access: { anyOf: [P.facility.conformityBody] } },
  { path: 'facility-requests/$facilityPublicId', component: serviceScreens.facilityRequests, access: { anyOf: facilityPolicies } },
  { path: 'add-facility/internal', component: facilityScreens.addInternal, access: { anyOf: [P.facility.internalCreate] } },
  { path: 'add-facility/external', component: facilityScreens.addExternal, access: { anyOf: [P.facility.externalCreate] } },
  { path: 'add-facility/conformity-body', component: facilityScreens.addConformityBody, access: { anyOf: [P.facility.conformityBodyCreate] } },
  { path: 'facility-profile/external/$facilityPublicId', component: facilityScreens.externalProfile, access: { anyOf: [P.facility.external] }, loader: facilityScreens.loadExternalProfile },
  { path: 'facility-profile/internal/$facilityPublicId', component: facilityScreens.internalProfile, access: { anyOf: [P.facility.internal] }, loader: facilityScreens.loadInternalProfile },
  {
    path: 'cb-delegation/$cbPublicId',
    component: facilityScreens.cbDelegation,
    access: { anyOf: [P.facility.conformityBody], mainUserOf: { kind: 'cb', param: 'cbPublicId' } },
  },
  {
    path: 'internal-delegation/$facilityPublicId',
    component: facilityScreens.internalDelegation,
    access: { anyOf: [P.facility.internal], mainUserOf: { kind: 'facility', param: 'facilityPublicId' } },
  },

  // Requests.
  {
    path: 'halal-request',
    component: requestScreens.halalRequests,
    access: { anyOf: [P.cbAccreditation.request, P.externalRequest.request, P.internalRequest.request, P.portals.halalCenter] },
  },
  { path: 'internal-halal-request', component: requestScreens.internalRequests, access: { anyOf: [P.internalRequest.request, P.portals.halalCenter] } },
  { path: 'requests/$requestId', component: requestScreens.requestPage, access: { signedIn: true }, loader: requestScreens.loadRequestPage },
  // The wizard of every service (routes/services/wizards.ts).
  { path: 'requests/$requestId/edit', component: serviceScreens.wizard, access: { signedIn: true } },
  { path: 'certificates/$certificateId', component: requestScreens.certificate, access: { signedIn: true } },
  // Issue 14 items 4-5: the records an applicant keeps (spec 01 names no paths; these sit beside certificates/$id).
  { path: 'certificates', component: recordScreens.certificates, access: { signedIn: true } },
  // Issue 14 item 3: issued Halal marks (the same list, kind=halalMark); each opens certificates/$id.
  { path: 'halal-marks', component: recordScreens.halalMarks, access: { signedIn: true } },
  { path: 'facility-profile/cb/$cbPublicId/edit', component: recordScreens.editCb, access: { anyOf: [P.facility.conformityBody] } },
  { path: 'facility-profile/external/$facilityPublicId/edit', component: recordScreens.editExternal, access: { anyOf: [P.facility.external] } },
  { path: 'invoices', component: recordScreens.invoices, access: { anyOf: [P.portals.general, P.portals.halalCenter] } },
  // Staff who handle payments (and the read-only auditor): the payments needing a person (GET /api/payments/attention).
  {
    path: 'payments-attention',
    component: lazyRouteComponent(() => import('./routes/payments/PaymentsAttentionPage'), 'PaymentsAttentionPage'),
    access: { anyOf: [P.payments.grantDiscount, P.auditLogs.view], staff: 'only' },
  },
  { path: 'corrective-action', component: placeholder('correctiveAction'), access: { anyOf: facilityPolicies } },
  { path: 'corrective-action-internal', component: requestScreens.correctiveActions, access: { anyOf: facilityPolicies } },
];

/** Route guards of start paths (spec 01 section 2 names one). */
const START_CHECKS: Partial<Record<RequestKind, RouteEntry['check']>> = { cbAddCategories: addCategoriesPrerequisites };

// A service with a wizard but no start screen of its own starts on the generic one, at its registry start path
// (add-products, add-categories, renewals, external certificate, shipment, marks, the CB designation).
for (const kind of genericStartKinds((path) => routeTable.some((e) => `/${e.path}` === path))) {
  const { start, startPermissions } = START_ROUTES[kind];
  routeTable.push({ path: start.replace(/^\//, ''), component: serviceScreens.start(kind), access: { anyOf: startPermissions }, check: START_CHECKS[kind] });
}
registerScreens(routeTable);

/** Paths that only redirect. */
const redirects: { path: string; to: string }[] = [
  { path: '/', to: '/home' },
  { path: 'personal-profile', to: '/personal-profile/personal-data' },
  // Spec 01's address of the internal certificate's wizard, kept for bookmarks and links: a redirect, not a second
  // route to the same screen, so a draft has one address (the request page's and the start's links, the history).
  { path: 'internal-halal-request/$requestId', to: WIZARD },
];

const MAIN_USER_CHECK = {
  cb: '/api/ConformityBody/IsUserForCbIsMainUser/{id}',
  facility: '/api/Facility/IsUserForFacilityIsMainUser/{id}',
} as const;

/** Delegation is for main users only; anything but a clear "yes" from the server (including a failure) is a 403. */
async function requireMainUser(kind: 'cb' | 'facility', id: string): Promise<void> {
  let answer: boolean;
  try {
    answer = await data(api.GET(MAIN_USER_CHECK[kind], { params: { path: { id } }, handleErrors: false }));
  } catch {
    throw new ForbiddenRouteError();
  }
  if (answer !== true) throw new ForbiddenRouteError();
}

/** Shows the right full error screen for whatever a route threw. */
export function RouteErrorScreen({ error }: ErrorComponentProps) {
  useDocumentLanguage();
  if (error instanceof ForbiddenRouteError) return <ErrorScreen status={403} />;
  if (error instanceof ApiError && isScreenStatus(error.status)) return <ErrorScreen status={error.status} message={refusalOf(error)} />;
  console.error(error);
  return <ErrorScreen status={500} />;
}

function NotFoundScreen() {
  useDocumentLanguage();
  return <ErrorScreen status={404} />;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ location }) => {
    // Spec 01 section 2: ?lang= switches the language (and it is remembered).
    const lang = (location.search as Record<string, unknown>).lang;
    if (isLanguage(lang) && lang !== currentLanguage()) await setLanguage(lang);
    await ensureSession();
  },
  component: AppShell,
  notFoundComponent: NotFoundScreen,
  errorComponent: RouteErrorScreen,
});

/**
 * A route's screen that announces when it is on the page (prerender/hydrated.ts), for the hydration of a painted page.
 * It renders the screen and nothing else, and keeps its `preload`, which the router calls to load a lazy screen.
 */
function announcing(Screen: RouteComponent): RouteComponent {
  function Announcing() {
    useEffect(() => announceHydrated('content'), []);
    return <Screen />;
  }
  return Object.assign(Announcing, { preload: (Screen as { preload?: () => Promise<void> }).preload });
}

function buildRoute(entry: RouteEntry): AnyRoute {
  const { access, check, loader } = entry;
  return createRoute({
    getParentRoute: () => rootRoute,
    path: entry.path,
    component: announcing(entry.component),
    beforeLoad: async ({ location, params }) => {
      const session = sessionStore.get();
      const p = params as Record<string, string>;
      if (entry.path === 'account/login' && session?.authenticated) {
        const back = safeReturnUrl((location.search as Record<string, unknown>).returnUrl);
        throw redirect({ href: back ?? landingPath(session) });
      }
      if (access) {
        const decision = decideAccess(access, session, location.href);
        if (decision.kind === 'redirect') throw redirect({ to: decision.to, search: decision.search ?? {} });
        if (decision.kind === 'forbidden') throw new ForbiddenRouteError();
        if (access.mainUserOf) await requireMainUser(access.mainUserOf.kind, p[access.mainUserOf.param]);
      }
      await check?.(p, location.search as Record<string, unknown>);
    },
    loader: loader && (({ params, context }) => loader(params as Record<string, string>, context.queryClient)),
  });
}

const routeTree = rootRoute.addChildren([
  ...redirects.map(({ path, to }) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path,
      beforeLoad: ({ params, search }) => {
        throw redirect({ to, params, search, replace: true });
      },
    }),
  ),
  ...routeTable.map(buildRoute),
]);

declare module '@tanstack/history' {
  interface HistoryState {
    /**
     * What the server told the applicant on SUBMIT (ServiceWizard), shown with the request page's confirmation: message
     * keys; entries written before them hold the text in the submitter's language and are shown as they are.
     */
    notices?: (string | NoticeMessage)[];
  }
}

/** The router's options; the server's prerender (prerender/render.tsx) makes a router of its own per page with them. */
export const routerOptions = {
  routeTree,
  defaultPreload: false,
  defaultErrorComponent: RouteErrorScreen,
  defaultNotFoundComponent: NotFoundScreen,
  scrollRestoration: true,
} as const;

export const router = createRouter({ ...routerOptions, context: { session: sessionStore, queryClient } });

// <html data-app-state="loading|ready"> tells E2E tests (and anyone scripting the portal) when a navigation,
// its guards and redirects included, has settled and the shell is on the page (its first render is deferred).
let resolved = false;
const showAppState = () => {
  document.documentElement.dataset.appState = resolved && shellShown.get() ? 'ready' : 'loading';
};
router.subscribe('onBeforeNavigate', () => {
  resolved = false;
  showAppState();
});
router.subscribe('onResolved', () => {
  resolved = true;
  showAppState();
});
shellShown.subscribe(showAppState);

/**
 * Starts the session call and the current page's code (main.tsx, with the texts) instead of after the first render
 * and the session answer (the root's beforeLoad): two round trips less before a page draws on a phone network. The
 * router reuses both (ensureSession, the lazy component's own load). Browser only: the prerender imports this module.
 */
export function startFirstLoads(): void {
  startSessionLoad();
  const [firstBranch] = router.getMatchedRoutes(window.location.pathname);
  for (const route of firstBranch) {
    const component = route.options.component as { preload?: () => Promise<void> } | undefined;
    void component?.preload?.().catch(() => undefined);
  }
}
