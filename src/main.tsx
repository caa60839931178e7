// First: the Convex client, whose WebSocket (and on /scene the request for the
// first page) starts before the rest of the entry is evaluated (see convexClient.ts).
import { prewarmSent } from "./app/convexClient";
import "@radix-ui/themes/styles.css";
import "./index.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProviders } from "./app/providers";
import { AppRouter } from "./app/router";

/*
 * On /scene, the first render waits for the socket to open, or 100 ms at most: the
 * socket's open event would otherwise wait behind that long task, and with it
 * the client's first messages, so the backend would start on the page's first
 * query (prewarmed in convexClient.ts) only once the app had rendered.
 */
void prewarmSent(100).then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <AppProviders>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  ),
);
