import { Button, Flex } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import type { AllowedActionView } from './requests-api';

/** Events answered in the request's wizard rather than in a dialog (the wizard validates the whole form). */
const WIZARD_EVENTS = new Set(['EDIT', 'SUBMIT', 'RESUBMIT']);
const WIZARD_PATH: Record<string, string> = { internalCertificate: '/internal-halal-request', internalRenewal: '/internal-halal-request' };

const DANGER = new Set(['REJECT', 'DELETE', 'CANCEL']);

/**
 * The action bar: one button per allowed action of GET /api/requests/:id/actions, in the order the machine lists
 * them. Nothing here depends on the status or the role; the event type only picks the dialog (or the wizard).
 */
export function ActionBar(props: { requestId: string; kind: string; actions: readonly AllowedActionView[]; onAction: (a: AllowedActionView) => void }) {
  const { requestId, kind, actions, onAction } = props;
  const navigate = useNavigate();
  const wizard = WIZARD_PATH[kind];
  if (actions.length === 0) return null;
  return (
    <Flex gap="2" wrap="wrap" data-testid="action-bar" role="toolbar">
      {actions.map((a) => (
        <Button
          key={a.type}
          size="sm"
          variant={DANGER.has(a.type) ? 'outline' : 'solid'}
          colorPalette={DANGER.has(a.type) ? 'red' : 'brand'}
          data-testid={`action-${a.type}`}
          onClick={() => {
            if (wizard && WIZARD_EVENTS.has(a.type)) {
              void navigate({ to: `${wizard}/$requestId`, params: { requestId }, search: a.type === 'EDIT' ? {} : { step: 'summary' } });
            } else onAction(a);
          }}
        >
          {a.label}
        </Button>
      ))}
    </Flex>
  );
}
