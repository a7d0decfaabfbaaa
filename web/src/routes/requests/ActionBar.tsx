import { Box, Button, Flex } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { isRequestKind, wizardPath } from '../services/wizards';
import type { AllowedActionView } from './requests-api';

/** Events answered in the request's wizard rather than in a dialog (the wizard validates the whole form). */
const WIZARD_EVENTS = new Set(['EDIT', 'SUBMIT', 'RESUBMIT']);
/** Events that refuse, send back, stop or remove: drawn apart from the approving ones (outlined, red). */
const DESTRUCTIVE = /^(REJECT|RETURN|CANCEL|DELETE|SUSPEND|WITHDRAW|REVOKE)/;
export const isDestructive = (type: string) => DESTRUCTIVE.test(type);

/**
 * The action bar: one button per allowed action of GET /api/requests/:id/actions, in the order the machine lists
 * them. Nothing here depends on the status or the role; the event type only picks the dialog (or the wizard).
 */
export function ActionBar(props: {
  requestId: string;
  kind: string;
  actions: readonly AllowedActionView[];
  onAction: (a: AllowedActionView) => void;
  /** Called when the pointer or the focus reaches the bar (a touch, a hover, a tab): the dialogs' code is fetched then. */
  onIntent?: () => Promise<unknown>;
}) {
  const { requestId, kind, actions, onAction, onIntent } = props;
  // A fetch that fails here is only early: the click tries again and says so (LazyEventDialog).
  const intent = onIntent ? () => void onIntent().catch(() => undefined) : undefined;
  const navigate = useNavigate();
  // A request's EDIT / SUBMIT / RESUBMIT open its wizard; an entity's (a certificate's) machine has none.
  const wizard = isRequestKind(kind);
  // No actions, no bar: an empty sticky strip would only cover the page.
  if (actions.length === 0) return null;
  // Approving actions first, destructive ones after them, set apart.
  const ordered = [...actions.filter((a) => !isDestructive(a.type)), ...actions.filter((a) => isDestructive(a.type))];
  return (
    <Box position="sticky" top="16" zIndex="docked" bg="bg" py="2" borderBottomWidth="1px">
      <Flex gap="2" wrap="wrap" data-testid="action-bar" role="toolbar" onPointerEnter={intent} onPointerDown={intent} onFocus={intent}>
        {ordered.map((a, i) => {
          const destructive = isDestructive(a.type);
          const firstDestructive = destructive && (i === 0 || !isDestructive(ordered[i - 1]!.type));
          return (
            <Button
              key={a.type}
              size="sm"
              ms={firstDestructive && i > 0 ? { base: 0, md: 'auto' } : undefined}
              variant={destructive ? 'outline' : 'solid'}
              colorPalette={destructive ? 'red' : 'brand'}
              data-testid={`action-${a.type}`}
              data-destructive={destructive || undefined}
              onClick={() => {
                if (wizard && WIZARD_EVENTS.has(a.type)) {
                  void navigate({ to: wizardPath(requestId), search: a.type === 'EDIT' ? {} : { step: 'summary' } });
                } else onAction(a);
              }}
            >
              {a.label}
            </Button>
          );
        })}
      </Flex>
    </Box>
  );
}
