import type { ReactNode } from 'react';
import type { ServiceDefinition, StepCheck } from '../../../../machines/services';
import { refusalOf } from '../../api/errors';
import type { Said } from '../../components/form/validation-messages';
import { apiQuery, queryClient } from '../../api/query';
import { generalMessages, issuesToErrors, serverErrors, type Errors } from '../../components/form/wizard-errors';
import { confirmImporter, ImporterCheck } from './ImporterCheck';
import { MarkPackageRule, markPackageStepIssues } from './MarkPackageRule';

/** What keeps the applicant on a step: each field's message, and the messages about no field. */
export interface StepRefusal {
  errors: Errors;
  messages: Said[];
}

/** The step a check is shown on: its section, the whole form, and how the section changes. */
export interface StepView {
  section: string;
  form: Record<string, unknown>;
  onChange: (value: unknown) => void;
  readOnly: boolean;
}

interface StepCheckUi {
  /** Shown above the step's inputs: what the check holds the step to, or a way to satisfy it. */
  Panel?: (p: StepView) => ReactNode;
  /** Run on "Next" once the section's own rules pass: the refusal, or null when the step may be left. */
  run: (section: string, form: Record<string, unknown>) => Promise<StepRefusal | null>;
}

/**
 * How the wizard runs each step check a service section declares (machines/services `SectionDefinition.stepChecks`),
 * by the check's name: the same rule the server's SUBMIT check runs, asked on the step. The wizard knows no step or
 * service by name; a new step check is a name in the contract and an entry here.
 */
export const STEP_CHECKS: Record<StepCheck, StepCheckUi> = {
  markPackage: {
    Panel: ({ form }) => <MarkPackageRule products={Array.isArray(form.products) ? form.products.length : 0} />,
    run: async (_section, form) => {
      // Limits that cannot be read refuse nothing here: submission checks them again.
      const limits = await queryClient.fetchQuery(apiQuery('/api/mark-packages')).catch(() => undefined);
      const issues = markPackageStepIssues(limits, form);
      return issues.length ? { errors: issuesToErrors(issues), messages: [] } : null;
    },
  },
  importerVerified: {
    Panel: ({ section, form, onChange, readOnly }) => (
      <ImporterCheck value={form[section] as Record<string, unknown> | undefined} onChange={onChange} readOnly={readOnly} />
    ),
    run: async (section, form) => {
      const refused = await confirmImporter(form[section]);
      if (!refused) return null;
      return { errors: serverErrors(refused), messages: refused.validationErrors.length ? generalMessages(refused) : [refusalOf(refused)] };
    },
  },
};

export const stepChecksOf = (def: ServiceDefinition, section: string): readonly StepCheck[] => def.sections[section]?.stepChecks ?? [];

/** The section's declared checks in order; the first refusal stops the step. */
export async function runStepChecks(def: ServiceDefinition, section: string, form: Record<string, unknown>): Promise<StepRefusal | null> {
  for (const name of stepChecksOf(def, section)) {
    const refused = await STEP_CHECKS[name].run(section, form);
    if (refused) return refused;
  }
  return null;
}

/** The panels of the section's declared checks, above its inputs. */
export function StepCheckPanels({ def, ...view }: StepView & { def: ServiceDefinition }) {
  return (
    <>
      {stepChecksOf(def, view.section).map((name) => {
        const Panel = STEP_CHECKS[name].Panel;
        return Panel ? <Panel key={name} {...view} /> : null;
      })}
    </>
  );
}
