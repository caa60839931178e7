import { Callout, Code, Container, Heading, Text, Theme } from "@radix-ui/themes";
import { useEffect, useState, type ReactNode } from "react";
import { loadToasts, toastsLoaded, type ToasterProps } from "@/lib/toast";
import { useSystemAppearance } from "@/lib/useSystemAppearance";
import { convex } from "./convexClient";
import { SessionProvider } from "./SessionProvider";

function MissingConfiguration() {
  return (
    <Container size="2" p="5">
      <Heading as="h1" mb="3">
        StageTime is not configured
      </Heading>
      <Callout.Root color="red" role="alert">
        <Callout.Text>
          The backend address is missing. Set <Code>VITE_CONVEX_URL</Code> (for the local backend:{" "}
          <Code>http://127.0.0.1:3210</Code>) and rebuild, or start everything with <Code>npm run dev</Code>.
        </Callout.Text>
      </Callout.Root>
      <Text as="p" size="2" color="gray" mt="3">
        See the README for every environment variable.
      </Text>
    </Container>
  );
}

/**
 * sonner's Toaster, mounted once sonner has loaded: on the first toast, or when
 * the page is idle after its first paint. A toast shown before it mounts is
 * replayed to it (sonner hands a new Toaster the toasts still active).
 */
function DeferredToaster(props: ToasterProps) {
  const [sonner, setSonner] = useState<Awaited<ReturnType<typeof loadToasts>> | null>(null);
  useEffect(() => {
    let live = true;
    void toastsLoaded().then((loaded) => live && setSonner(loaded));
    const idle = window.setTimeout(() => void loadToasts(), 300);
    return () => {
      live = false;
      window.clearTimeout(idle);
    };
  }, []);
  return sonner ? <sonner.Toaster {...props} /> : null;
}

/** Theme (following the system's light or dark mode), toasts, and the Convex
 * client with its auth session around the whole app.
 *
 * Panels are solid: translucent ones (Radix's default) give every card a
 * 64 px backdrop blur, which the page's plain background never shows but which
 * a browser without a GPU (software compositing) redraws on every frame: about
 * 150 ms for the scene's first frame in headless Chromium on 2 cores. */
export function AppProviders({ children }: { children: ReactNode }) {
  const appearance = useSystemAppearance();
  return (
    <Theme
      appearance={appearance}
      accentColor="violet"
      grayColor="mauve"
      radius="medium"
      scaling="100%"
      panelBackground="solid"
    >
      {convex ? <SessionProvider client={convex}>{children}</SessionProvider> : <MissingConfiguration />}
      {/* The spec allows one toast at a time. At the bottom (full width on a phone), so a toast
          never covers the top bar or a wizard's step counter. */}
      <DeferredToaster visibleToasts={1} theme={appearance} position="bottom-right" richColors closeButton />
    </Theme>
  );
}
