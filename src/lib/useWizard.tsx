import { useState, useSyncExternalStore, type ReactElement } from "react";
import { Navigate, useNavigate } from "@/lib/router";

/** Where a wizard keeps its answers between steps (and across a reload). */
export type WizardStore<S> = {
  get: () => S;
  subscribe: (listener: () => void) => () => void;
  /** Forgets the answers once the wizard is done. */
  reset: () => void;
};

/** A wizard: where its answers live and the path of each of its named steps. */
export type WizardDefinition<Step extends string, S> = {
  store: WizardStore<S>;
  path: (step: Step) => string;
};

/**
 * The one wizard-state hook of onboarding, log-a-set and add-event: the
 * answers so far, `goTo(step)` to move on, `redirect(step)` for a step opened
 * without what it needs, and `leave(to)` to finish and forget the answers.
 */
export function useWizard<Step extends string, S>({ store, path }: WizardDefinition<Step, S>) {
  const state = useSyncExternalStore(store.subscribe, store.get, store.get);
  const navigate = useNavigate();
  // Set while the last page leaves, so the reset does not trigger that page's redirect.
  const [leaving, setLeaving] = useState(false);
  return {
    state,
    goTo: (step: Step) => void navigate(path(step)),
    redirect: (step: Step): ReactElement => <Navigate to={path(step)} replace />,
    leaving,
    leave: (to: string) => {
      setLeaving(true);
      void navigate(to);
      store.reset();
    },
  };
}
