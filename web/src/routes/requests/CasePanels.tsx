import { Badge, Box, DataList, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { FactsList } from '../../components/FactsList';
import { CardCell, CardHeader, cardBody, type CardColumn, cardRow, cardTable } from '../../components/CardTable';
import { useTranslation } from 'react-i18next';
import type { TAuditPlan } from '../../../../machines/events';
import { Ltr } from '../../components/Bidi';
import { latestCorrectiveActions, latestNonConformities, rejectionReasons } from '../audit/nonconformities';
import { useAttachmentNames } from './attachment-names';
import type { HistoryItem } from './requests-api';
import { listSeparator } from '../../i18n';
import { formatDate } from '../../lib/dates';

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The audit plan as the applicant reads it before accepting or returning it (spec 02 section 4): goal, language,
 * visit dates, each activity with its time and auditors, the team, coordinators and attendees.
 */
/** `draft`: audit's saved, unsent plan (staff only), shown apart from the plan the applicant was sent. */
export function AuditPlanPanel({ plan, people, highlight, staff = false, draft = false }: { plan: TAuditPlan; people: Readonly<Record<string, string>>; highlight: boolean; staff?: boolean; draft?: boolean }) {
  const { t, i18n } = useTranslation('requests');
  const dateOf = (day: string) => formatDate(day, i18n.language, 'full');
  const timelineColumns = [
    { key: 'date', label: t('plan.date') },
    { key: 'time', label: t('plan.time') },
    { key: 'activity', label: t('plan.activity') },
    { key: 'auditors', label: t('plan.auditors') },
  ] as const satisfies readonly CardColumn[];
  const name = (id: string) => people[id] ?? '—';
  const rows: [string, React.ReactNode][] = [
    [t('plan.visitGoal'), plan.visitGoal],
    [t('plan.language'), t(`plan.languages.${plan.language}`)],
    [t('plan.visitDates'), plan.visitDates.map((d) => dateOf(d)).join(' · ')],
    [t('plan.teamLeader'), name(plan.teamLeaderUserId)],
    [t('plan.technicalAuditors'), plan.technicalAuditorUserIds.map(name).join(listSeparator()) || '—'],
    [t('plan.islamicAffairsExpert'), plan.islamicAffairsExpert],
    [t('plan.coordinatorName'), [plan.facilityCoordinator.name, plan.facilityCoordinator.phone].filter(Boolean).join(' — ')],
    // The auditors' notes for the decision committee are for staff, not the applicant.
    ...(staff && plan.notesForCommittee ? ([[t('plan.notesForCommittee'), <span key="notes" data-testid="plan-notes-for-committee">{plan.notesForCommittee}</span>]] as [string, React.ReactNode][]) : []),
  ];
  return (
    <Box as="section" aria-labelledby={draft ? 'plan-draft-title' : 'plan-title'} borderWidth={highlight ? '2px' : '1px'} borderColor={highlight ? 'brand.solid' : undefined} borderStyle={draft ? 'dashed' : undefined} borderRadius="md" p="4" data-testid={draft ? 'plan-draft-panel' : 'plan-panel'}>
      <Heading as="h2" size="lg" id={draft ? 'plan-draft-title' : 'plan-title'} mb="1">
        {t(draft ? 'plan.draftTitle' : 'plan.title')}
      </Heading>
      {draft && (
        <Text mb="3" color="fg.muted">
          {t('plan.draftNote')}
        </Text>
      )}
      {highlight && (
        <Text mb="3" color="fg.muted" data-testid="plan-read-first">
          {t('plan.readFirst')}
        </Text>
      )}
      <FactsList mb="4">
        {rows.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel minW="44">{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </FactsList>
      <Heading as="h3" size="md" mb="2">
        {t('plan.timelineTitle')}
      </Heading>
      <Box overflowX="auto" tabIndex={0} role="region" aria-label={t('plan.timelineTitle')}>
        <Table.Root size="sm" variant="outline" data-testid="plan-timeline" {...cardTable}>
          <CardHeader columns={timelineColumns} />
          <Table.Body {...cardBody}>
            {plan.timeline.map((item, i) => (
              <Table.Row key={i} {...cardRow}>
                <CardCell label={timelineColumns[0].label}>{dateOf(item.date)}</CardCell>
                <CardCell label={timelineColumns[1].label}>
                  <Ltr>
                    {item.hour}:{two(item.minute)}
                  </Ltr>{' '}
                  {t(`plan.${item.period}`)}
                </CardCell>
                <CardCell label={timelineColumns[2].label}>{item.activity}</CardCell>
                <CardCell label={timelineColumns[3].label}>{item.auditorUserIds.map(name).join(listSeparator()) || '—'}</CardCell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      {(plan.attendees?.length ?? 0) > 0 && (
        <Text mt="3" fontSize="sm">
          {t('plan.attendees')}: {plan.attendees!.map((a) => `${a.firstName} ${a.lastName} (${a.jobRole})`).join(listSeparator())}
        </Text>
      )}
    </Box>
  );
}

/** The latest audit's non-conformities with the corrective actions answered and their documents, for both sides. */
export function NonConformitiesPanel({ history }: { history: readonly HistoryItem[] }) {
  const { t } = useTranslation('requests');
  const files = useAttachmentNames();
  const ncs = latestNonConformities(history);
  if (ncs.length === 0) return null;
  const actions = latestCorrectiveActions(history);
  const rejected = rejectionReasons(history);
  const doc = (id: string | undefined) =>
    id ? (
      <a href={`/api/attachments/${id}/download`} data-testid="case-document">
        <bdi>{files.get(id)?.name ?? t('wizard.attached')}</bdi>
      </a>
    ) : null;
  return (
    <Box as="section" aria-labelledby="nc-title" borderWidth="1px" borderRadius="md" p="4" data-testid="nc-panel">
      <Heading as="h2" size="lg" id="nc-title" mb="3">
        {t('result.ncTitle')}
      </Heading>
      <Stack gap="4">
        {ncs.map((nc, i) => {
          const action = actions.get(nc.id);
          const reason = rejected.get(nc.id);
          return (
            <Box key={nc.id} borderTopWidth={i ? '1px' : 0} pt={i ? '4' : 0} data-testid="nc-item">
              <Text fontWeight="semibold">
                <Ltr>
                  {nc.specification} {nc.clauseNumber}
                </Ltr>{' '}
                — {nc.description}
              </Text>
              <Text color="fg.muted">{nc.observedCase}</Text>
              {doc(nc.supportingDocumentId)}
              {action ? (
                <Box mt="2" ps="4" borderInlineStartWidth="3px" borderColor={reason ? 'red.muted' : 'brand.muted'}>
                  <Text fontWeight="medium">{t('corrective.action')}</Text>
                  <Text>{action.description}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    {t('corrective.implementationDate')}: <Ltr>{action.implementationDate}</Ltr>
                    {action.completionDate && (
                      <>
                        {' · '}
                        {t('corrective.completionDate')}: <Ltr>{action.completionDate}</Ltr>
                      </>
                    )}
                  </Text>
                  {doc(action.documentId)}
                  {action.customerSignatureFileId && (
                    <Text fontSize="sm" data-testid="customer-signature">
                      {t('corrective.customerSignature')}: {doc(action.customerSignatureFileId)}
                    </Text>
                  )}
                  {reason && (
                    <Badge colorPalette="red" mt="1">
                      {t('corrective.rejectedBecause', { reason })}
                    </Badge>
                  )}
                </Box>
              ) : (
                <Badge mt="2" colorPalette="orange">
                  {t('result.awaitingAction')}
                </Badge>
              )}
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
