import { useEffect, useState } from 'react';
import { Alert, Badge, Box, Button, Card, DataList, Dialog, Flex, Heading, Link as ChakraLink, Portal, Stack, Tabs, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { useApi } from '../../api/query';
import { FactsList } from '../../components/FactsList';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { DownloadIcon } from '../../components/icons';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { notify } from '../../components/toaster';
import { useRouteParams } from '../../route-params';
import { selectFacility } from '../../session/selected-facility';
import { facilityProfileQueries, type Member } from './facilities-api';
import { CrStatusBadge, nameIn, permissionKey, RoleLabel } from './labels';
import { formatIban } from '../../../../machines/forms/facilities/formats';
import { servicePath } from '../../../../machines/services';
import { startParams, startableServices } from '../services/services';
import { facilityRequestsPath } from '../services/links';
import { countryName } from '../../lib/countries';
import { listSeparator } from '../../i18n';
import { formatDate } from '../../lib/dates';

type Kind = 'cb' | 'internal' | 'external';

export const CbProfilePage = () => <FacilityProfile kind="cb" publicId={useRouteParams('facility-profile/cb/$cbPublicId').cbPublicId} />;
export const InternalProfilePage = () => <FacilityProfile kind="internal" publicId={useRouteParams('facility-profile/internal/$facilityPublicId').facilityPublicId} />;
export const ExternalProfilePage = () => <FacilityProfile kind="external" publicId={useRouteParams('facility-profile/external/$facilityPublicId').facilityPublicId} />;

/**
 * facility-profile/cb|internal|external/{publicId}: the facility's control panel. Its data (re-verified against the
 * commercial registry for an internal facility's main user), its users with "main (you)" / "sub (you)", its files,
 * and for the main user of a CB or internal facility the delegation entry; sub users do not see it.
 */
function FacilityProfile({ kind, publicId }: { kind: Kind; publicId: string }) {
  const { t, i18n } = useTranslation(['facilities', 'requests', 'services']);
  // Independent reads: they start together (and the route's loader, when registered, starts them before this chunk).
  const queries = facilityProfileQueries(kind, publicId);
  const facility = useApi(queries.facility);
  const me = useApi(queries.me);
  const users = useApi(queries.users);
  const [verifying, setVerifying] = useState(false);
  const [ibanAnswer, setIbanAnswer] = useState<boolean | null>(null);
  const [shownUser, setShownUser] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const f = facility.data;

  // Opening a profile selects that facility (the header logo then links back here).
  useEffect(() => {
    if (f) selectFacility({ facilityType: f.facilityType, id: f.id, publicId: f.publicId });
  }, [f]);

  if (!f) return <PageContainer>{null}</PageContainer>;
  const isMain = !!me.data?.isMainUser;
  const services = me.data ? startableServices(kind, me.data.permissions) : [];
  const canDelegate = isMain && kind !== 'external';
  const delegationPath = kind === 'cb' ? `/cb-delegation/${encodeURIComponent(f.publicId)}` : `/internal-delegation/${encodeURIComponent(f.publicId)}`;

  const verify = async () => {
    setVerifying(true);
    try {
      await data(api.POST('/api/Facility/VerifyAndUpdateCrData', { body: { publicId: f.publicId } }));
      notify.success(t('profile.verified'));
      await facility.refetch();
    } catch {
      // the shell shows the message
    } finally {
      setVerifying(false);
    }
  };

  // The main user removes a sub user: their delegation is revoked on the server (the main user cannot be removed).
  const removeUser = async (u: Member) => {
    const body = { facilityPublicId: f.publicId, userId: u.userId };
    await data(kind === 'cb' ? api.POST('/api/ConformityBodyDelegation/RemoveUser', { body }) : api.POST('/api/InternalFacilityDelegation/RemoveUser', { body }));
    setRemoving(null);
    notify.success(t('profile.userRemoved', { name: u.name }));
    await users.refetch();
  };

  const answerIban = async (confirmed: boolean) => {
    await data(api.POST('/api/ConformityBody/ConfirmConformityBodyIban', { params: { query: { publicId: f.publicId, isIbanConfirmed: confirmed } } }));
    setIbanAnswer(null);
    await facility.refetch();
  };

  const d = f.details as Record<string, unknown>;
  const address = (d.address && typeof d.address === 'object' ? d.address : {}) as Record<string, string | null>;
  const rows: [string, React.ReactNode][] = [
    [t('fields.registrationNumber'), <span dir="ltr">{f.registrationNumber}</span>],
    [t('fields.country'), countryName(f.countryCode, i18n.language)],
    [t('fields.city'), f.city],
  ];
  if (kind === 'internal') {
    rows.push(
      [t('fields.unifiedNumber'), <span dir="ltr">{f.unifiedNumber}</span>],
      [t('fields.commercialName'), String(d.commercialName ?? '')],
      [t('fields.activity'), String((i18n.language === 'ar' ? d.activityName : d.activityNameEn) ?? '')],
      [t('fields.crIssueDate'), String(d.crIssueDate ?? '')],
      [t('fields.crExpiryDate'), String(d.crExpiryDate ?? '')],
      [t('fields.address'), [address.district, address.streetName, address.buildingNumber, address.zipCode, address.additionalNumber].filter(Boolean).join(listSeparator(i18n.language))],
      [t('fields.fullTimeEmployeeCount'), String(d.fullTimeEmployeeCount ?? '')],
      [t('fields.totalAnnualRevenue'), String(d.totalAnnualRevenue ?? '—')],
    );
  }
  if (kind === 'external') {
    rows.push(
      [t('fields.address'), String(d.address ?? '')],
      [t('fields.operations'), ((d.operations as string[] | undefined) ?? []).join(listSeparator(i18n.language))],
      [t('fields.productionLinesCount'), String(d.productionLinesCount ?? '')],
      [t('fields.criticalPointsCount'), String(d.criticalPointsCount ?? '')],
      [t('fields.permanentEmployeeCount'), String(d.permanentEmployeeCount ?? '')],
      [t('fields.shiftsCount'), String(d.shiftsCount ?? '')],
      [t('fields.productionArea'), String(d.productionArea ?? '')],
    );
  }
  if (kind === 'cb') {
    rows.push(
      [t('fields.address'), String(d.address ?? '')],
      [t('fields.acceptanceNumber'), <span dir="ltr">{f.acceptanceNumber}</span>],
      [t('fields.notificationNumber'), <span dir="ltr">{f.notificationNumber ?? '—'}</span>],
      [t('fields.certificateIssueDate'), f.certificateIssueDate],
      [t('fields.certificateExpiryDate'), f.certificateExpiryDate],
      [t('fields.categories'), ((d.categories as string[] | undefined) ?? []).map((c) => t(`public:cbCategory.${c}`, { defaultValue: c })).join(listSeparator(i18n.language))],
    );
  }

  const userColumns: Column<Member>[] = [
    { key: 'name', header: t('fields.userName'), render: (u) => u.name },
    { key: 'role', header: t('fields.role'), render: (u) => <RoleLabel role={u.role} isYou={u.isCurrentUser} /> },
    { key: 'email', header: t('fields.email'), render: (u) => <span dir="ltr">{u.email}</span> },
    { key: 'since', header: t('fields.memberSince'), render: (u) => formatDate(u.memberSince, i18n.language) },
    {
      key: 'details',
      header: '',
      align: 'end',
      render: (u) => (
        <Flex gap="2" justify="flex-end">
          <Button size="xs" variant="outline" onClick={() => setShownUser(u)}>
            {t('profile.userDetails')}
          </Button>
          {canDelegate && u.role !== 0 && (
            <Button size="xs" variant="outline" colorPalette="red" onClick={() => setRemoving(u)} data-testid="remove-user">
              {t('profile.removeUser')}
            </Button>
          )}
        </Flex>
      ),
    },
  ];

  return (
    <PageContainer>
      <PageHeader
        title={nameIn(f, i18n.language)}
        breadcrumbs={[{ label: t('associated.title'), to: '/associated-facilities' }, { label: nameIn(f, i18n.language) }]}
        description={
          <Flex gap="2" mt="2" align="center" wrap="wrap">
            <Badge variant="outline">{t(`facilityType.${f.facilityType}`)}</Badge>
            <CrStatusBadge status={f.crStatus} />
            {f.currentUserRole !== null && <RoleLabel role={f.currentUserRole} isYou />}
          </Flex>
        }
        actions={
          <>
            {canDelegate && (
              <Button asChild colorPalette="brand" data-testid="delegation-menu">
                <Link to={delegationPath}>{t('profile.delegate')}</Link>
              </Button>
            )}
            {kind === 'internal' && isMain && (
              <Button variant="outline" loading={verifying} onClick={() => void verify()}>
                {t('profile.verifyCr')}
              </Button>
            )}
          </>
        }
      />
      <Stack gap="4">
        {f.acceptanceCertificateExpired && (
          <Alert.Root status="error" data-testid="acceptance-expired">
            <Alert.Indicator />
            <Alert.Description>{t('errors:AcceptanceCertificateExpired')}</Alert.Description>
          </Alert.Root>
        )}
        {f.crVerification === 'unavailable' && (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Description>{t('profile.registryUnavailable')}</Alert.Description>
          </Alert.Root>
        )}
        {f.crStatus && f.crStatus !== 'Active' && (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Description>{t('profile.crNotActive', { status: t(`crStatus.${f.crStatus}`) })}</Alert.Description>
          </Alert.Root>
        )}
        <Card.Root data-testid="facility-services">
          <Card.Body>
            <Stack gap="4">
              {services.length > 0 && (
                <Box>
                  <Heading as="h2" size="md" mb="3">
                    {t('requests:start.servicesTitle')}
                  </Heading>
                  <Flex gap="2" wrap="wrap">
                    {services.map((d) => (
                      <Button key={d.kind} asChild colorPalette="brand" data-testid={`start-${d.kind}`}>
                        <Link to={servicePath(d.routes.start, startParams(f.publicId))}>{t('requests:start.new', { service: t(d.titleKey) })}</Link>
                      </Button>
                    ))}
                  </Flex>
                </Box>
              )}
              <Flex as="nav" aria-label={t('requests:facilityViews.label')} gap="2" wrap="wrap">
                {(['requests', 'certificates', 'marks', 'bills'] as const).map((v) => (
                  <Button key={v} asChild variant="outline" size="sm" data-testid={`facility-${v}`}>
                    <Link to={facilityRequestsPath(f.publicId, v)}>{t(`requests:facilityViews.${v}`)}</Link>
                  </Button>
                ))}
              </Flex>
            </Stack>
          </Card.Body>
        </Card.Root>
        <Tabs.Root defaultValue="data" variant="line">
          <Tabs.List>
            <Tabs.Trigger value="data">{t('profile.tabs.data')}</Tabs.Trigger>
            <Tabs.Trigger value="users" data-testid="users-tab">
              {t('profile.tabs.users')}
            </Tabs.Trigger>
            <Tabs.Trigger value="attachments">{t('profile.tabs.attachments')}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="data">
            <Stack gap="4">
              <Card.Root>
                <Card.Body>
                  <FactsList data-testid="facility-data">
                    {rows.map(([label, value]) => (
                      <DataList.Item key={label}>
                        <DataList.ItemLabel minW="48">{label}</DataList.ItemLabel>
                        <DataList.ItemValue>{value}</DataList.ItemValue>
                      </DataList.Item>
                    ))}
                  </FactsList>
                </Card.Body>
              </Card.Root>
              {kind === 'cb' && (
                <Card.Root>
                  <Card.Body>
                    <Heading as="h2" size="md" mb="3">
                      {t('profile.iban')}
                    </Heading>
                    <Flex gap="3" align="center" wrap="wrap">
                      <Text dir="ltr" fontFamily="mono">
                        {f.iban ? formatIban(f.iban) : '—'}
                      </Text>
                      <Badge colorPalette={f.ibanStatus === 'Confirmed' ? 'green' : 'orange'} data-testid="iban-status">
                        {t(`ibanStatus.${f.ibanStatus}`)}
                      </Badge>
                      {isMain && f.ibanStatus === 'Pending' && (
                        <>
                          <Button size="sm" colorPalette="brand" onClick={() => setIbanAnswer(true)}>
                            {t('profile.confirmIban')}
                          </Button>
                          <Button size="sm" variant="outline" onClick={() => setIbanAnswer(false)}>
                            {t('profile.declineIban')}
                          </Button>
                        </>
                      )}
                    </Flex>
                    {f.ibanStatus === 'Confirmed' && (
                      <Text mt="2" fontSize="sm" color="fg.muted">
                        {t('errors:IbanAlreadyConfirmed')}
                      </Text>
                    )}
                  </Card.Body>
                </Card.Root>
              )}
              {kind === 'cb' && f.designationCertificate && (
                <Card.Root>
                  <Card.Body>
                    <Heading as="h2" size="md" mb="3">
                      {t('profile.designationCertificate')}
                    </Heading>
                    <Flex gap="3" align="center" wrap="wrap">
                      <Text dir="ltr">{f.designationCertificate.number}</Text>
                      <Badge colorPalette={f.designationCertificate.usable ? 'green' : 'red'}>
                        {t(f.designationCertificate.usable ? 'profile.certificateUsable' : 'profile.certificateBlocked')}
                      </Badge>
                      <Text color="fg.muted">{t('profile.expiresOn', { date: formatDate(f.designationCertificate.expiresAt, i18n.language) })}</Text>
                    </Flex>
                  </Card.Body>
                </Card.Root>
              )}
            </Stack>
          </Tabs.Content>
          <Tabs.Content value="users">
            <DataTable caption={t('profile.tabs.users')} columns={userColumns} rows={users.data ?? []} rowKey={(u) => u.userId} loading={users.isFetching && !users.data} />
          </Tabs.Content>
          <Tabs.Content value="attachments">
            {f.attachments.length === 0 ? (
              <Text color="fg.muted">{t('profile.noAttachments')}</Text>
            ) : (
              <Stack gap="2">
                {f.attachments.map((a) => (
                  <Flex key={a.id} gap="3" align="center" borderWidth="1px" borderRadius="md" p="3">
                    <Box flex="1">
                      <Text fontWeight="medium">{t(`attachmentCategory.${a.category}`)}</Text>
                      <Text fontSize="sm" color="fg.muted" dir="ltr">
                        {a.fileName}
                      </Text>
                    </Box>
                    <ChakraLink href={`/api/facility-attachments/${a.id}`} download>
                      <DownloadIcon /> {t('common:actions.download')}
                    </ChakraLink>
                  </Flex>
                ))}
              </Stack>
            )}
          </Tabs.Content>
        </Tabs.Root>
      </Stack>

      <ConfirmDialog
        open={!!removing}
        title={t('profile.removeUserTitle')}
        message={t('profile.removeUserQuestion', { name: removing?.name ?? '' })}
        confirmLabel={t('profile.removeUser')}
        tone="danger"
        onConfirm={() => (removing ? removeUser(removing) : undefined)}
        onCancel={() => setRemoving(null)}
        testId="remove-user-dialog"
      />
      <ConfirmDialog
        open={ibanAnswer !== null}
        title={t(ibanAnswer ? 'profile.confirmIban' : 'profile.declineIban')}
        message={t(ibanAnswer ? 'profile.confirmIbanQuestion' : 'profile.declineIbanQuestion', { iban: f.iban ? formatIban(f.iban) : '' })}
        tone={ibanAnswer ? 'primary' : 'danger'}
        onConfirm={() => answerIban(!!ibanAnswer)}
        onCancel={() => setIbanAnswer(null)}
      />
      <Dialog.Root open={!!shownUser} onOpenChange={(e) => !e.open && setShownUser(null)} placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="user-details">
              <Dialog.Header>
                <Dialog.Title>{shownUser?.name}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                {shownUser && (
                  <FactsList>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.role')}</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <RoleLabel role={shownUser.role} isYou={shownUser.isCurrentUser} />
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.loginName')}</DataList.ItemLabel>
                      <DataList.ItemValue dir="ltr">{shownUser.userName}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.email')}</DataList.ItemLabel>
                      <DataList.ItemValue dir="ltr">{shownUser.email}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.delegatedBy')}</DataList.ItemLabel>
                      <DataList.ItemValue>{shownUser.delegatedBy ?? t('profile.applicant')}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.permissions')}</DataList.ItemLabel>
                      <DataList.ItemValue>
                        {shownUser.role === 0 ? t('profile.allPermissions') : shownUser.permissions.map((p) => t(permissionKey(p))).join(listSeparator(i18n.language)) || t('profile.noPermissions')}
                      </DataList.ItemValue>
                    </DataList.Item>
                  </FactsList>
                )}
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => setShownUser(null)}>
                  {t('common:actions.close')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </PageContainer>
  );
}

