import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, Flex, Grid, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { Link, useRouterState, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { notify } from '../../components/toaster';
import { ltr } from '../../components/Bidi';
import { facilityRequestsPath, staffProfilePath } from '../services/links';
import { nameIn } from '../facilities/labels';
import { useSession } from '../../session';
import { AuditReports } from '../audit/AuditReports';
import { BillsPanel } from '../payments/BillsPanel';
import { ClockBadge } from './ClockBadge';
import { ActionBar } from './ActionBar';
import { baselineAtLastReturn } from './data-changes';
import { EventDialog, preloadEventDialog } from './LazyEventDialog';
import { HistoryTimeline } from './HistoryTimeline';
import { AuditorPanel } from '../admin/AuditorPanel';
import { RequestDataView } from './RequestDataView';
import { AuditPlanPanel, NonConformitiesPanel } from './CasePanels';
import type { TAuditPlan } from '../../../../machines/events';
import { AttachmentNames, useRequestAttachments } from './attachment-names';
import { requestQueries, useReadAgainOnNewVersion, type AllowedActionView } from './requests-api';
import { REQUEST_SECTIONS } from './request-sections';
import { MACHINE_KINDS, type MachineKind } from '../../../../machines/types';
import { listSeparator } from '../../i18n';
import { nextStepsKeys } from './next-steps';
import { IssuedMarks } from './IssuedMarks';
import { noticeText } from './notices';

/**
 * The request page everyone who may see the request gets: its status and data (changes since the last return
 * highlighted), bills, certificate, the history timeline, and the action bar built from the allowed actions.
 */
export function RequestPage() {
  const { requestId } = useRouteParams('requests/$requestId');
  const search = useSearch({ strict: false }) as { payment?: string; submitted?: unknown };
  const notices = useRouterState({ select: (s) => s.location.state.notices });
  const { t, i18n } = useTranslation(['requests', 'shell']);
  const session = useSession();
  const queries = requestQueries(requestId);
  const people = apiQuery('/api/requests/{id}/people', { params: { path: { id: requestId } } });
  // A request in the payment queue moves on without anyone acting on this page: the payment portal confirms a bill,
  // the system issues a paid mark package (1004 -> 1005) or a paid external certificate (103 -> 105). Look again every
  // few seconds for two minutes (while the page is visible), so the person who just paid sees the outcome without
  // reloading: in the payment queue, or back from the payment portal (the paid request has left that queue).
  const pollSince = useRef(0);
  const justPaid = search.payment === 'paid';
  const request = useApi(queries.request, {
    refetchInterval: ({ state }) =>
      (state.data?.queue === 'payment' || justPaid) && !state.data?.finished && Date.now() - pollSince.current < 120_000 ? 3000 : false,
  });
  const version = request.data?.version ?? 0;
  // The loader read these with the request; when its version changes (an event, the poll) they are read again.
  useReadAgainOnNewVersion(request.data?.version, [queries.actions, queries.history, queries.bills, people]);
  useEffect(() => {
    pollSince.current = Date.now();
  }, [version, requestId]);
  const actions = useApi(queries.actions);
  const history = useApi(queries.history);
  const [open, setOpen] = useState<AllowedActionView | null>(null);
  const files = useRequestAttachments(request.data?.facilityId, request.data?.id);
  // The plan sent to the applicant, and (staff only: the server gives it no one else) audit's saved, unsent one.
  const hasPlan = !!request.data?.context.auditPlan || !!request.data?.context.auditPlanDraft;
  const planPeople = useApi(people, { enabled: hasPlan });

  useEffect(() => {
    if (search.payment === 'paid') notify.success(t('requests:payment.paid'));
    else if (search.payment) notify.warning(t('requests:payment.notPaid'));
  }, [search.payment, t]);

  // What the finished request produced, as the server tells it (none while open, rejected or cancelled): a certificate
  // it issued or changed is named by GET /api/requests/{id}/certificate, marks by IssuedMarks.
  const produced = request.data?.outcome?.kind;
  const outcome = produced === 'certificate-issued' ? 'issued' : produced === 'certificate-changed' ? 'changed' : undefined;
  const issued = useApi(apiQuery('/api/requests/{id}/certificate', { params: { path: { id: requestId } }, handleErrors: false }), {
    enabled: !!outcome,
  });
  const certificate = outcome && !issued.isError ? issued.data : undefined;

  const r = request.data;
  if (!r) return <PageContainer>{null}</PageContainer>;
  const items = history.data?.items ?? [];
  const returned = items.some((h) => h.event === 'RETURN') && items.at(-1)?.event !== 'RETURN';
  // Reviewers see what the applicant changed since the request was returned to them (spec 01 section 3).
  const baseline = returned && session?.isStaff ? baselineAtLastReturn(items) : null;
  const home = session?.isStaff ? '/halal-profile' : facilityRequestsPath(r.facilityId);

  return (
    <PageContainer>
      <PageHeader
        title={t('requests:page.title', { number: ltr(r.number) })}
        breadcrumbs={[{ label: t(session?.isStaff ? 'shell:menu.home' : 'requests:list.facilityTitle'), to: home }, { label: ltr(r.number) }]}
        description={
          <Flex gap="3" mt="2" align="center" wrap="wrap">
            <Badge size="lg" colorPalette="brand" data-testid="request-status" data-code={r.status.code}>
              {r.status.label}
            </Badge>
            <Text color="fg.muted">{t('requests:page.creator', { name: r.creatorName })}</Text>
            {/* Staff reach the facility's (or CB's) profile view from its request; the server names its type. */}
            {session?.isStaff && r.facility && (
              <ChakraLink asChild colorPalette="brand">
                <Link to={staffProfilePath(r.facilityId, r.facility.type)} data-testid="facility-profile-link">
                  {t('requests:page.facilityProfile', { name: nameIn(r.facility, i18n.language) })}
                </Link>
              </ChakraLink>
            )}
            {r.clock && <ClockBadge clock={r.clock} />}
          </Flex>
        }
      />
      <Stack gap="8">
        {search.submitted !== undefined && r.status.code !== 0 && r.status.code !== 100 && (
          <Alert.Root status="success" data-testid="submitted-confirmation">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title data-testid="submitted-number">{t('requests:confirmation.title', { number: ltr(r.number) })}</Alert.Title>
              <Alert.Description>
                <Text fontWeight="semibold" mt="2">
                  {t('requests:confirmation.nextTitle')}
                </Text>
                <Text whiteSpace="pre-line" data-testid="next-steps">
                  {t(nextStepsKeys(r.kind, r.queue))}
                </Text>
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {search.submitted !== undefined && !!notices?.length && (
          <Alert.Root status="warning" data-testid="submitted-notices">
            <Alert.Indicator />
            <Alert.Content>
              {notices.map((n, i) => (
                <Alert.Description key={i}>{noticeText(t, i18n.language, n)}</Alert.Description>
              ))}
            </Alert.Content>
          </Alert.Root>
        )}
        <ActionBar requestId={r.id} kind={r.kind} actions={actions.data?.actions ?? []} onAction={setOpen} onIntent={preloadEventDialog} />
        {certificate && (
          <Flex gap="3" align="center" borderWidth="1px" borderColor="green.muted" bg="green.subtle" borderRadius="md" p="4" data-testid="certificate-link">
            <Text>{t(`requests:certificate.${outcome}`, { number: ltr(certificate.number) })}</Text>
            <Button asChild size="sm" colorPalette="green">
              <Link to="/certificates/$certificateId" params={{ certificateId: certificate.id }}>
                {t('requests:certificate.open')}
              </Link>
            </Button>
          </Flex>
        )}
        <IssuedMarks requestId={r.id} issued={r.outcome?.kind === 'marks'} />
        {!!r.context.auditPlanDraft && (
          <AuditPlanPanel plan={r.context.auditPlanDraft as TAuditPlan} people={planPeople.data ?? {}} highlight={false} staff={session?.isStaff === true} draft />
        )}
        {!!r.context.auditPlan && (
          <AuditPlanPanel
            plan={r.context.auditPlan as TAuditPlan}
            people={planPeople.data ?? {}}
            highlight={(actions.data?.actions ?? []).some((a) => a.type === 'ACCEPT_PLAN' || a.type === 'RETURN_PLAN')}
            staff={session?.isStaff === true}
          />
        )}
        <AttachmentNames.Provider value={files.map}>
          <NonConformitiesPanel history={items} />
        </AttachmentNames.Provider>
        <BillsPanel requestId={r.id} />
        {session?.isStaff && <AuditReports history={items} />}
        {session?.isStaff && (
          <AuditorPanel requestId={r.id} related={certificate ? [{ id: certificate.id, label: t('admin:diagram.certificate', { number: certificate.number }) }] : []} />
        )}
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }} gap="8">
          <Box minW="0">
            {(r.context.returnedSections?.length ?? 0) > 0 && (
              <Text mb="3" color="orange.fg" data-testid="returned-sections">
                {t('requests:page.returnedSections', { sections: r.context.returnedSections!.map((s) => t(`requests:sections.${s}`)).join(listSeparator()) })}
              </Text>
            )}
            {baseline && (
              <Text mb="3" fontSize="sm" color="fg.muted" data-testid="changes-legend">
                {t('requests:changes.legend')}
              </Text>
            )}
            <AttachmentNames.Provider value={files.map}>
              <RequestDataView data={r.data} baseline={baseline} facilityNames={r.facilityNames} order={(MACHINE_KINDS as readonly string[]).includes(r.kind) ? REQUEST_SECTIONS[r.kind as MachineKind] : []} />
            </AttachmentNames.Provider>
          </Box>
          <HistoryTimeline items={items} />
        </Grid>
      </Stack>
      {open && (
        <EventDialog
          request={r}
          history={items}
          action={open}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            void request.refetch();
          }}
        />
      )}
    </PageContainer>
  );
}
