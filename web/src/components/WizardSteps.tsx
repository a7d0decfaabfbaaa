import { useEffect, useRef } from 'react';
import { Box, Button, Flex, Text, type BoxProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export interface WizardStep {
  key: string;
  title: string;
  /** A step a reviewer sent back: drawn in orange. */
  returned?: boolean;
}

/**
 * The steps of every wizard: "Step 2 of 5: Facility data", then a row of numbered steps that scrolls sideways on a
 * phone, keeping the current step in view, instead of widening the page (Chakra's Steps did, by 90–210 px at 390 px).
 * With `onGo` each step is a button (the request wizards, whose steps can be visited in any order); without it the
 * row only shows the progress of a wizard that checks each step before the next.
 */
export function WizardSteps({ steps, current, onGo, ...box }: { steps: WizardStep[]; current: number; onGo?: (index: number) => void } & BoxProps) {
  const { t } = useTranslation('common');
  const row = useRef<HTMLElement>(null);

  // The current step in view in the row: 14 steps do not fit any screen, 4 do not fit a phone.
  useEffect(() => {
    row.current?.querySelector('[aria-current="step"]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [current]);

  return (
    <Box {...box}>
      <Text mb="2" fontSize="sm" color="fg.muted" data-testid="step-counter">
        {t('wizard.stepOf', { n: current + 1, count: steps.length, title: steps[current]?.title ?? '' })}
      </Text>
      <Box ref={row} as="nav" aria-label={t('wizard.steps')} overflowX="auto" pb="2" data-testid="steps-scroller">
        <Flex as="ol" gap="2" minW="max-content" listStyleType="none" m="0" p="0">
          {steps.map((s, i) => {
            const look = {
              colorPalette: s.returned ? 'orange' : 'brand',
              'aria-current': i === current ? ('step' as const) : undefined,
              'data-testid': `step-${s.key}`,
            };
            const label = (
              <>
                <bdi>{i + 1}</bdi>
                {s.title}
              </>
            );
            return (
              <Box as="li" key={s.key}>
                {onGo ? (
                  <Button size="sm" rounded="full" variant={i === current ? 'solid' : i < current ? 'subtle' : 'outline'} onClick={() => onGo(i)} {...look}>
                    {label}
                  </Button>
                ) : (
                  <Flex
                    as="span"
                    align="center"
                    gap="2"
                    h="9"
                    px="3.5"
                    rounded="full"
                    borderWidth="1px"
                    fontSize="sm"
                    fontWeight="medium"
                    whiteSpace="nowrap"
                    {...(i === current
                      ? { bg: 'colorPalette.solid', color: 'colorPalette.contrast', borderColor: 'transparent' }
                      : i < current
                        ? { bg: 'colorPalette.subtle', color: 'colorPalette.fg', borderColor: 'transparent' }
                        : { color: 'fg.muted', borderColor: 'border' })}
                    {...look}
                  >
                    {label}
                  </Flex>
                )}
              </Box>
            );
          })}
        </Flex>
      </Box>
    </Box>
  );
}
