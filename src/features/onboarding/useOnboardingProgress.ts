import { useQuery } from "convex/react";
import { useCallback, useMemo } from "react";
import { paths, type OnboardingStep } from "@/lib/paths";
import { useWizard, type WizardDefinition } from "@/lib/useWizard";
import { api } from "@convex/_generated/api";
import {
  clearProgress,
  loadProgress,
  progressReducer,
  saveProgress,
  type OnboardingProgress,
  type ProgressAction,
} from "./progress";

/**
 * One in-memory copy of the onboarding answers shared by every step, written
 * through to localStorage on each change so a reload resumes.
 */
let current: OnboardingProgress | null = null;
const listeners = new Set<() => void>();

function snapshotFor(userId: string | null): OnboardingProgress {
  if (current === null || (userId !== null && current.userId !== userId)) current = loadProgress(userId);
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(): void {
  for (const listener of listeners) listener();
}

export function dispatchProgress(userId: string | null, action: ProgressAction): void {
  current = progressReducer(snapshotFor(userId), action);
  saveProgress(current);
  emit();
}

/** Forgets the answers (after finishing or skipping onboarding). */
export function forgetProgress(): void {
  clearProgress();
  current = null;
  emit();
}

/** The onboarding wizard of one account: its answers in the shared copy above. */
function onboardingWizard(userId: string | null): WizardDefinition<OnboardingStep, OnboardingProgress> {
  return { store: { get: () => snapshotFor(userId), subscribe, reset: forgetProgress }, path: paths.onboarding };
}

/**
 * The signed-in comedian's onboarding answers, a dispatcher and the wizard's
 * moves (`goTo`, `redirect`); `ready` once the profile is known.
 */
export function useOnboardingProgress() {
  const me = useQuery(api.profiles.me);
  const userId = me?.userId ?? null;
  const { state: progress, ...wizard } = useWizard(useMemo(() => onboardingWizard(userId), [userId]));
  const dispatch = useCallback((action: ProgressAction) => dispatchProgress(userId, action), [userId]);
  return { me, progress, dispatch, ready: me !== undefined, ...wizard };
}
