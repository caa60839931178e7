import { Component, type ErrorInfo, type ReactNode } from "react";

/** `resetKey`: when it changes (a navigation, say), the subtree is tried again. */
type Props = { fallback: ReactNode; children: ReactNode; resetKey?: unknown };
type State = { failed: boolean; resetKey: unknown };

/** Shows `fallback` instead of a subtree that threw while rendering. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
