import { useState } from 'react';
import { Alert, Button, Card, Stack, Text } from '@chakra-ui/react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { SERVICES, type RequestKind } from '../../../../machines/services';
import { api, data } from '../../api/client';
import { apiQuery, useApi } from '../../api/query';
import { ApiError } from '../../api/errors';
import { showProblem } from '../../components/problem-handler';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useMemberFacility } from '../facilities/facilities-api';
import { nameIn } from '../facilities/labels';
import { useOptionalRouteParams } from '../../route-params';
import { facilityProfilePath } from '../../session/selected-facility';
import type { RequestDetail } from '../requests/requests-api';
import { WEB_SERVICES } from './services';
import { wizardPath } from './wizards';
import { StartCertificate } from './StartCertificate';
import { useStartCheck } from './start-check';

/** The refusal's id: the disabled Start button is described by it. */
const START_REFUSED_ID = 'start-refused';

/** Drops the fields a refused first draft named, so a stale profile value never blocks starting a request. */
function without(data: Record<string, unknown>, paths: string[]): Record<string, unknown> {
  const out = structuredClone(data);
  for (const path of paths) {
    const parts = path.split('.');
    let node: Record<string, unknown> | undefined = out;
    for (const p of parts.slice(0, -1)) node = node?.[p] as Record<string, unknown> | undefined;
    if (node) delete node[parts[parts.length - 1]!];
  }
  return out;
}

/**
 * The start screen of a service that has a wizard but no start screen of its own (its `routes.start` in
 * machines/services): names the service and the facility (and the certificate it is about), says why the start would be
 * refused if the server's start check says it would (then "Start" is disabled), and on "Start" creates the draft with what the
 * portal already knows about the facility, then opens the wizard. A button, not an automatic start, so reloading the page
 * never creates a second draft.
 */
export function StartServicePage({ kind }: { kind: RequestKind }) {
  const def = SERVICES[kind];
  const params = useOptionalRouteParams('facilityPublicId', 'cbPublicId', 'certificateId');
  const publicId = params.facilityPublicId ?? params.cbPublicId ?? '';
  // A renewal, a change or a mark is about one certificate: from the start path, or `?certificateId=`.
  const search = useSearch({ strict: false }) as { certificateId?: string };
  const certificateId = def.subject.type === 'certificate' ? (params.certificateId ?? search.certificateId) : undefined;
  const { t, i18n } = useTranslation(['requests', 'services', 'shell', 'facilities']);
  const navigate = useNavigate();
  const { facility } = useMemberFacility(publicId);
  // A certificate the user may not read answers 404: the shell's not-found screen.
  const certificate = useApi(apiQuery('/api/certificates/{id}', { params: { path: { id: certificateId ?? '' } } }), { enabled: !!certificateId });
  // The start's own checks, asked before the button is pressed: a refusal (a renewal not open, one already open, a
  // suspended certificate, an expired acceptance certificate) is said here in the start's words.
  const { canStart, refused } = useStartCheck(kind, publicId, certificateId);
  const [starting, setStarting] = useState(false);
  const title = t(def.titleKey);
  const f = facility.data;
  const c = certificateId ? certificate.data : undefined;

  const start = async () => {
    setStarting(true);
    try {
      const prefill = f && WEB_SERVICES[kind]?.prefill ? WEB_SERVICES[kind]!.prefill!(f) : {};
      let created: RequestDetail;
      try {
        created = await data(api.POST('/api/requests', { body: { kind, facilityId: publicId, certificateId, data: prefill }, handleErrors: [400] }));
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 400) throw e;
        // A refusal of the start itself (a renewal not open yet, an expired acceptance certificate): told as the shell
        // tells any 400. Only a refusal of prefilled fields is answered by starting again without them.
        if (!e.validationErrors.length) {
          showProblem(e);
          return;
        }
        const rejected = e.validationErrors.flatMap((v) => v.members);
        created = await data(api.POST('/api/requests', { body: { kind, facilityId: publicId, certificateId, data: without(prefill, rejected) } }));
      }
      await navigate({ to: wizardPath(created.id) });
    } catch {
      // the shell shows the refusal (a precondition, a missing permission)
    } finally {
      setStarting(false);
    }
  };

  const crumbs = [{ label: t('facilities:associated.title'), to: '/associated-facilities' }];
  if (f) crumbs.push({ label: nameIn(f, i18n.language), to: facilityProfilePath({ facilityType: f.facilityType, id: f.id, publicId: f.publicId }) });
  return (
    <PageContainer>
      <PageHeader title={title} breadcrumbs={[...crumbs, { label: title }]} />
      <Card.Root maxW="2xl">
        <Card.Body>
          <Stack gap="4">
            <Text>{t('requests:start.intro', { service: title, facility: f ? nameIn(f, i18n.language) : '' })}</Text>
            {WEB_SERVICES[kind]?.prefill && (
              <Text color="fg.muted" data-testid="prefill-note">
                {t('requests:start.prefillNote')}
              </Text>
            )}
            {c && <StartCertificate certificate={c} />}
            {refused && (
              <Alert.Root status="warning" id={START_REFUSED_ID} data-testid="start-refused">
                <Alert.Indicator />
                <Alert.Title>{refused}</Alert.Title>
              </Alert.Root>
            )}
            <Button
              alignSelf="start"
              colorPalette="brand"
              loading={starting}
              disabled={!f || (!!certificateId && !c) || !canStart}
              aria-describedby={refused ? START_REFUSED_ID : undefined}
              onClick={() => void start()}
              data-testid="start-service"
            >
              {t('requests:start.button')}
            </Button>
          </Stack>
        </Card.Body>
      </Card.Root>
    </PageContainer>
  );
}

/** One route component per kind (router.tsx generates the routes from the service registry). */
export const startServiceScreen = (kind: RequestKind) => {
  const Screen = () => <StartServicePage kind={kind} />;
  Screen.displayName = `StartService(${kind})`;
  return Screen;
};
