// First: the Convex client, whose WebSocket (and on /scene the request for the
// first page) starts before the rest of the entry is evaluated (see convexClient.ts).
import "./app/convexClient";
// Early, so the browser's install offer is kept for the dashboard's card however late that renders.
import "./lib/installPrompt";
import "@radix-ui/themes/styles.css";
import "./index.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProviders } from "./app/providers";
import { AppRouter, routerReady } from "./app/router";

/*
 * The first render waits for the page's code (3 s at most), so it renders the
 * page itself at once. On /scene, the page's first cards are already on their
 * way over HTTP (index.html) and the WebSocket's live copy follows.
 */
void routerReady(3_000).then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <AppProviders>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  ),
);
